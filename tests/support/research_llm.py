"""A scripted research LLM for the fake server: it answers each engine prompt by the JSON schema the
engine asks for (its title is the pydantic model's name), in German or English, and lets a test bend
single answers (coverage, an unanswerable plan, a wrong-language reply, a fault)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from support import fake_ollama_replies as replies
from support.fake_ollama_replies import RecordedRequest, ReplyLike

TEXTS = {
    "de": {
        "queries": ["Grenzwerte beruflich exponierte Personen", "Strahlenschutz Dosis Überwachung",
                    "zuständige Behörde Ausnahme Grenzwert", "Begriffsbestimmung effektive Dosis",
                    "Pflichten des Strahlenschutzverantwortlichen"],
        "gap": "Es ist unklar, ob die Frage berufliche oder öffentliche Exposition betrifft",
        "question": "Geht es Ihnen um die berufliche Exposition oder um die Exposition der Bevölkerung?",
        "question2": "Sollen auch die Ausnahmen der Behörde für einzelne Jahre betrachtet werden?",
        "scope": "Grenzwerte der effektiven Dosis für beruflich exponierte Personen nach dem Strahlenschutzgesetz",
        "summary": "Gesucht sind die Grenzwerte der effektiven Dosis für beruflich exponierte Personen und die "
                   "Ausnahmen, die die Behörde im Einzelfall zulassen kann.",
        "task": "Grenzwert der effektiven Dosis für beruflich exponierte Personen ermitteln",
        "task2": "Ausnahmen der zuständigen Behörde für einzelne Jahre prüfen",
        "task3": "Grenzwerte für Personen unter 18 Jahren prüfen",
        "context": "Dieser Schritt klärt den Kern der Frage.",
        "reason": "Die Wissensbasis enthält nur Strahlenschutzrecht; zu dieser Frage gibt es keine Dokumente.",
        # no figure: the scripted statements cite whatever the search found, and a figure must stand there
        "answer": "Der Grenzwert der effektiven Dosis für beruflich exponierte Personen ist im Strahlenschutzgesetz "
                  "festgelegt",
        "wording": "Das Gesetz formuliert dies so",
        "detail": "Die zuständige Behörde kann im Einzelfall eine höhere Dosis für ein einzelnes Jahr zulassen",
    },
    "en": {
        "queries": ["annual dose limit occupational exposure", "radiation protection dose monitoring",
                    "competent authority exception dose limit", "definition effective dose",
                    "duties of the radiation protection officer"],
        "gap": "It is unclear whether the question is about occupational or public exposure",
        "question": "Are you interested in occupational exposure or in the exposure of the public?",
        "question2": "Should the exceptions the authority may allow for single years be included?",
        "scope": "Limits of the effective dose for occupationally exposed persons",
        "summary": "The user wants the limits of the effective dose for occupationally exposed persons and the "
                   "exceptions the authority may allow in single cases.",
        "task": "Find the limit of the effective dose for occupationally exposed persons",
        "task2": "Check the exceptions the competent authority may allow for single years",
        "task3": "Check the limits for persons under 18 years",
        "context": "This step settles the core of the question.",
        "reason": "The knowledge base only holds radiation protection law; no document covers this question.",
        "answer": "The limit of the effective dose for occupationally exposed persons is laid down in the radiation "
                  "protection law",
        "wording": "The law puts it like this",
        "detail": "The competent authority may allow a higher dose for a single year in individual cases",
    },
}


def schema_title(body: dict[str, Any]) -> str | None:
    fmt = body.get("format")
    if isinstance(fmt, dict):
        return fmt.get("title")
    rf = body.get("response_format") or {}
    schema = (rf.get("json_schema") or {}).get("schema") or {}
    return schema.get("title") or (rf.get("json_schema") or {}).get("name")


def prompt_text(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []))


def user_text(body: dict[str, Any]) -> str:
    """What the user turns say (the system text holds instructions and examples, not this call's data)."""
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []) if m.get("role") == "user")


# an excerpt's numbered sentences, after the start of its first sentence from the page before where it has one
EXCERPT = re.compile(r"^Excerpt (S\d+) \(([^\n]*)\):\n(?:\(sentence \[1\] begins on p\. [^\n]*\n)?"
                     r"((?:(?:\[\d+\] [^\n]*|\(…\))\n?)+)", re.M)


def excerpts(body: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    """(label, header, numbered sentences) of every excerpt the call shows."""
    return [(m.group(1), m.group(2), re.findall(r"^\[\d+\] (.*)$", m.group(3), re.M))
            for m in EXCERPT.finditer(user_text(body))]


@dataclass
class ResearchLLM:
    """Call it as the fake server's responder. ``overrides[title]`` replaces the default answer of
    that schema (a dict, a Reply fault, or a callable of the request); ``once[title]`` does so for
    the next call only."""

    coverage: float = 0.4
    gaps: int = 2
    answerable: bool = True
    plan_items: int = 3
    overrides: dict[str, ReplyLike | Callable[[RecordedRequest], ReplyLike]] = field(default_factory=dict)
    once: dict[str, list[ReplyLike]] = field(default_factory=dict)
    calls: Counter = field(default_factory=Counter)

    def __call__(self, request: RecordedRequest) -> ReplyLike | None:
        body = request.body or {}
        title = schema_title(body)
        if title is None:
            return None
        translated = title == "TranslatedBatch"  # a reading over documents in another language: one schema here
        title = "ExtractionBatch" if translated else title
        self.calls[title] += 1
        if self.once.get(title):
            return self.once[title].pop(0)
        if title in self.overrides:
            answer = self.overrides[title]
            return answer(request) if callable(answer) else answer
        language = "de" if re.search(r"\bin German\b", prompt_text(body)) else "en"
        if title == "ExtractionBatch":
            return replies.as_json(self.extraction(language, body, translated))
        return replies.as_json(self.default(title, language, prompt_text(body)))

    @staticmethod
    def synthesis(language: str, prompt: str) -> dict[str, Any]:
        """Statements citing the first sources, one quoting the first verified quote given, the others restating
        the first words of their source's quote, as a careful model would."""
        numbers = [int(n) for n in re.findall(r"^\[(\d+)\] ", prompt, re.M)][:3] or [1]
        quotes = dict(re.findall(r'^\[(\d+)\] [^\n]*\n    verified quote: "([^"\n]+)"', prompt, re.M))
        quote = re.search(r'verified quote: "(.+)"', prompt)
        t = TEXTS[language]
        details = [{"text": f"{t['wording']}: „{quote.group(1)}“.", "sources": [numbers[0]]}] if quote else []
        details += [{"text": f"{t['detail']}: „{' '.join(quotes[str(n)].split()[:12])}“.", "sources": [n]}
                    for n in numbers[1:] if str(n) in quotes]
        return {"answer": [{"text": f"{t['answer']}.", "sources": [numbers[0]]}], "details": details, "open": []}

    def default(self, title: str, language: str, prompt: str) -> dict[str, Any]:
        t = TEXTS[language]
        if title == "SearchQueries":
            n = int(m.group(1)) if (m := re.search(r"exactly (\d+)", prompt)) else 3
            used = set(re.findall(r"^- (.+)$", prompt, re.M))
            pool = [q for q in t["queries"] if q not in used] or [f"{t['queries'][0]} {self.calls[title]}"]
            return {"queries": (pool * n)[:n]}
        if title == "RetrievalAnalysis":
            return {"key_concepts": ["effektive Dosis" if language == "de" else "effective dose", "Grenzwert"],
                    "entities": ["StrlSchG", "§ 78"], "scope": t["scope"], "assumed_context": [],
                    "knowledge_gaps": [f"{t['gap']} ({i + 1})" if i else t["gap"] for i in range(self.gaps)],
                    "coverage": round(100 * self.coverage)}
        if title == "FollowUpQuestions":
            return {"questions": [t["question"], t["question2"]]}
        if title == "ClarificationResult":
            return {"research_queries": t["queries"][:3], "key_entities": ["StrlSchG", "§ 78"], "scope": t["scope"],
                    "refinements": [t["question"]], "avoid": ["Exposition der Bevölkerung" if language == "de" else "public exposure"],
                    "summary": t["summary"]}
        if title == "PlanProposal":
            if not self.answerable:
                return {"answerable": False, "reason": t["reason"], "items": []}
            tasks = [t["task"], t["task2"], t["task3"]] * 5
            return {"answerable": True, "reason": "", "items": [
                {"task": tasks[i], "context": t["context"], "subtasks": [t["task3"]]} for i in range(self.plan_items)]}
        if title == "PlanOutline":
            if not self.answerable:
                return {"answerable": False, "items": []}
            tasks = [t["task"], t["task2"], t["task3"]] * 5
            return {"answerable": True, "items": [{"task": tasks[i], "subtasks": [t["queries"][i % 5]]}
                                                  for i in range(self.plan_items)]}
        if title == "SynthesisAnswer":
            return self.synthesis(language, prompt)
        if title == "BriefAnswer":  # under a binding time budget: the same statements, in one list
            full = self.synthesis(language, prompt)
            return {"statements": full["answer"] + full["details"]}
        if title == "TaskSummaryAnswer":
            return {"summary": t["summary"], "key_points": [t["task"]], "open_questions": []}
        if title == "DriftScores":
            ids = re.findall(r"^\[(F\d+)\]", prompt, re.M)
            scores = [self.drift_score(i, prompt) for i in ids]
            return {"scores": scores, "reasons": [{"id": i, "reason": t["context"]}
                                                  for i, score in zip(ids, scores) if score < 2][:6]}
        if title == "QualityAnswer":
            return {"grounding": 85, "completeness": 80, "structure": 80, "citations": 85, "notes": t["context"]}
        raise AssertionError(f"the test LLM has no answer for schema {title}")

    relevance: float = 0.8
    off_topic: str | None = None  # excerpts containing this text get a low drift score

    def extraction(self, language: str, body: dict[str, Any], translated: bool = False) -> dict[str, Any]:
        """Every excerpt helps; its quote is its first sentence of six words or more, as a careful model
        would point at it; over documents in another language, with a line in the answer's language."""
        readings = []
        for label, _, sentences in excerpts(body):
            number = next((i for i, x in enumerate(sentences, start=1) if len(x.split()) >= 6), 1)
            readings.append({"excerpt": label, "relevance": max(1, round(3 * self.relevance)), "quote": [number],
                             **({"info": f"{TEXTS[language]['summary']} ({label})"} if translated else {})})
        return {"readings": readings, "requests": []}

    def drift_score(self, finding_id: str, prompt: str) -> int:
        if self.off_topic is None:
            return 3
        line = next((ln for ln in prompt.splitlines() if ln.startswith(f"[{finding_id}]")), "")
        return 0 if self.off_topic in line else 3


QUESTION_DE = "Welche effektive Jahresdosis darf eine beruflich exponierte Person höchstens erhalten?"
QUESTION_EN = "What is the maximum annual effective dose for occupationally exposed persons?"
