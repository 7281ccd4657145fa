"""Every prompt of the engine, as data. Written in English; the answer language is a parameter.

A prompt is a system text and a user text with ``{placeholders}``; ``render`` fills them and returns
the messages. The fixed instructions (and an example, where a small model needs one) come first and
the variable part last, so that Ollama's and llama.cpp's prompt caches reuse the shared prefix from
one call to the next; the user text ends by naming the answer language again (a small model follows
the last thing it read). ``max_tokens`` bounds each answer. Keep the wording here, the logic in the
phases.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from desktop.llm.types import Message

LANGUAGE_NAMES = {"de": "German", "en": "English"}

_ROLE = (
    "You are Rabbithole, a careful research assistant for analysts and regulatory reviewers. You work only "
    "from the user's knowledge base of documents (laws, ordinances, standards, reports, case files), which "
    "you see as numbered excerpts with document and page. Never invent facts, sections, documents or pages."
)


def language_name(code: object) -> str:
    return LANGUAGE_NAMES.get(str(code), str(code))


@dataclass(frozen=True)
class Prompt:
    name: str
    system: str
    user: str
    max_tokens: int = 600
    example: str = ""  # appended to the system text as written (it may hold JSON braces)

    def render(self, **values: object) -> list[Message]:
        # every "...language" value is a code ("de") that the prompt names in words ("German"); the
        # examples of that language fill the example's placeholders
        filled = {**examples(str(values.get("language", "en"))),
                  **{k: language_name(v) if k.endswith("language") else v for k, v in values.items()}}
        filled.setdefault("language", "English")
        system = f"{_ROLE}\n\n{self.system.format(**filled)}"
        if self.example:  # JSON braces stay as written; only named {placeholders} are filled
            example = self.example
            for key, value in filled.items():
                example = example.replace("{" + key + "}", str(value))
            system += "\n\n" + example
        return [Message(role="system", content=system), Message(role="user", content=self.user.format(**filled))]


def _example(*parts: str) -> str:
    return "\n".join(parts)


# No example query here: small models copy an example's words into every query they write.
_QUERY_RULES = (
    "A search query is 3 to 10 words that the documents themselves would contain: legal and technical terms, "
    "defined terms, a section number only together with the name of its law. Never a file name, never a bare "
    "section number, never a question to the user. Write queries in {doc_language}, the language of the "
    "documents."
)

QUERIES_FIRST = Prompt(
    "clarify.queries",
    system="Write search queries for a hybrid (semantic and keyword) search of the knowledge base. " + _QUERY_RULES,
    user=(
        "Research question: {question}\n\n"
        "The question itself is searched already. Write exactly {n} more queries: {angles}. Answer as JSON, the "
        "queries in {doc_language}."
    ),
    max_tokens=200,
)

QUERIES_NEXT = Prompt(
    "clarify.queries",
    system=QUERIES_FIRST.system,
    user=(
        "Research question: {question}\n\n"
        "What the user has said so far:\n{answers}\n\n"
        "Open knowledge gaps:\n{gaps}\n\n"
        "Queries already used (do not repeat them):\n{used}\n\n"
        "Write exactly {n} new search queries: {angles}. Answer as JSON, the queries in {doc_language}."
    ),
    max_tokens=200,
)

# What the model's queries of a round look for, in order; a round uses as many as it asks for. The
# question itself is always searched as well (the first round's first query), so no angle restates it.
FIRST_ANGLES = (
    "one broader query for the rules around the question",
    "one from another angle (obligations, exceptions, consequences, competent authority)",
    "one with the defined terms the documents are likely to use",
    "one for related rules elsewhere in the documents",
    "one for the procedure or deadlines involved",
)
NEXT_ANGLES = (
    "one that closes the most important open gap",
    "one for a concept the user's answer introduced",
    "one that settles the scope the user wants",
    "one for the second most important gap",
    "one for terms the documents use for what the user described",
)

ANALYZE = Prompt(
    "clarify.analyze",
    system=(
        "Analyse how well the excerpts cover the research question. Write all texts in {language}.\n"
        "- key_concepts: the 3 to 7 terms the answer turns on.\n"
        "- entities: laws, sections, authorities, technical terms, dates named in the question or the excerpts.\n"
        "- scope: one sentence: what the question covers and what it does not.\n"
        "- knowledge_gaps: at most 4, each a different, specific piece of information the answer needs and the "
        "excerpts do not give (never 'more details'); none when nothing is missing.\n"
        "- coverage: percent of what the answer needs that the excerpts already contain: 0 = nothing, "
        "50 = the main fact but not its conditions or exceptions, 100 = everything."
    ),
    example="Example of the form (not of the content; coverage left out): {analysis_example}",
    user=(
        "Research question: {question}\n\n"
        "{answers}"
        "Excerpts from the knowledge base, most relevant first:\n{excerpts}\n\n"
        "Answer as JSON, its texts in {language}."
    ),
    max_tokens=500,
)

QUESTIONS = Prompt(
    "clarify.questions",
    system=(
        "Ask the user follow-up questions that make the research question precise. Each question is about this "
        "research question and addresses one knowledge gap or one ambiguity of scope; it is short, concrete, "
        "answerable in a sentence, and offers options where that helps (for example: occupational or public "
        "exposure?). Do not ask what the user already answered. Write the questions in {language}."
    ),
    user=(
        "Research question: {question}\n\n"
        "{answers}"
        "Scope as understood so far: {scope}\n\n"
        "Knowledge gaps:\n{gaps}\n\n"
        "Ask {q_min} to {q_max} questions. Answer as JSON, its texts in {language}."
    ),
    max_tokens=250,
)

FINALIZE = Prompt(
    "clarify.finalize",
    system=(
        "Clarification is over. State precisely what the user wants, so that the research stays on course. "
        "Write scope, refinements, avoid and summary in {language}. research_queries: 3 to 5 searches that "
        "together cover the refined question. " + _QUERY_RULES
    ),
    user=(
        "Research question: {question}\n\n"
        "Clarification dialogue:\n{dialogue}\n\n"
        "Latest analysis - key concepts: {concepts}; entities: {entities}; scope: {scope}; open gaps: {gaps}\n\n"
        "Return research_queries, key_entities, scope (one or two sentences), refinements (each thing the user "
        "made clear, as a short statement), avoid (topics the user excluded, or that would drift away from the "
        "question) and summary (one paragraph stating the refined research question and its limits). Answer as "
        "JSON, its texts in {language}."
    ),
    max_tokens=600,
)

PLAN = Prompt(
    "plan.propose",
    system=(
        "Plan the research as a to-do list. A to-do is one research task that the knowledge base can answer: a "
        "concrete question or check, a context of one sentence that says why it matters for the research "
        "question, and 1 or 2 subtasks, each a short search phrase. Do not repeat the research question itself: "
        "it is already task 0. Cover what the answer needs "
        "besides the main fact: conditions, exceptions, deadlines, competent authority, definitions. "
        "answerable is true whenever at least one excerpt concerns the subject of the question, even if it does "
        "not settle everything; set it false (with the reason) only when no excerpt concerns the subject at all. "
        "Write in {language}."
    ),
    example="Example of one to-do (the form; a task of yours is about your question): {plan_example}",
    user=(
        "Research question: {question}\n\n"
        "Refined question: {summary}\n"
        "Scope: {scope}\n"
        "Avoid: {avoid}\n\n"
        "Excerpts from the knowledge base, most relevant first:\n{excerpts}\n\n"
        "Write {p_min} to {p_max} to-dos. Answer as JSON, its texts in {language}."
    ),
    max_tokens=700,
)

# --auto: nobody reads the plan before it runs, so it is titles and queries only — the minutes go to reading
PLAN_OUTLINE = Prompt(
    "plan.propose",
    system=(
        "Plan the research as a short to-do list. Each to-do names one thing the answer needs besides the main "
        "fact (a condition, an exception, a deadline, who is responsible or competent, a definition, a related "
        "rule): task is a title of at most ten words in {language}; subtasks are 1 or 2 search queries of 3 to 8 "
        "words in {doc_language}, worded as the documents would word it. No explanations. Do not repeat the "
        "research question: it is already task 0. answerable is false only when no excerpt concerns the subject "
        "of the question at all."
    ),
    example="Example (the form; your to-dos are about your question): {outline_example}",
    user=(
        "Research question: {question}\n\n"
        "Excerpts from the knowledge base, most relevant first:\n{excerpts}\n\n"
        "Write {p_min} to {p_max} to-dos. Answer as JSON: titles in {language}, queries in {doc_language}."
    ),
    max_tokens=300,
)

# --auto, a question that asks several things: its parts are the plan's tasks; the model writes a search for each
PLAN_PARTS = Prompt(
    "plan.propose",
    system=(
        "Write one search query for each numbered part of a research question: 3 to 8 words in {doc_language}, "
        "as the documents would word it, naming what the part is about (what 'it', 'sie', 'this' refers to in "
        "the parts before). " + _QUERY_RULES
    ),
    user=(
        "The parts of the research question:\n{parts}\n\n"
        "Write exactly {n} queries in {doc_language}: the first for part 1, the second for part 2, and so on. "
        "Answer as JSON, the queries in {doc_language}."
    ),
    max_tokens=300,
)

REPLAN = Prompt(
    "plan.replan",
    system=PLAN.system,
    example=PLAN.example,
    user=(
        "Research question: {question}\n\n"
        "Refined question: {summary}\n"
        "Scope: {scope}\n"
        "Avoid: {avoid}\n\n"
        "Current plan (task 0 is the research question and stays):\n{plan}\n\n"
        "The user's feedback on the plan: {feedback}\n\n"
        "Excerpts from the knowledge base, most relevant first:\n{excerpts}\n\n"
        "Write the revised to-do list without task 0, {p_min} to {p_max} to-dos, following the feedback. "
        "Answer as JSON, its texts in {language}."
    ),
    max_tokens=700,
)

WRONG_LANGUAGE = "Your answer is written in {found} but must be in {language}. Write it again in {language}."
NOT_SEARCHES = ("These are not search queries: {bad}. Write each as 3 to 10 words the documents would contain, "
                "not file names or bare section numbers.")


# Examples in the answer language: a small model answers in the language of the example it saw (seen:
# a 1.5B model wrote German questions' plans in English, every time). Generic on purpose: copied, they
# still make sense.
EXAMPLES = {
    "de": {
        "analysis_example": json.dumps({
            "key_concepts": ["Grenzwert"], "entities": ["§ 5"], "scope": "Gefragt ist nach der Regel, nicht nach "
            "ihrer Durchsetzung.", "assumed_context": [], "knowledge_gaps": ["Ob eine Ausnahme gilt."]},
            ensure_ascii=False),
        "plan_example": json.dumps({
            "task": "Ausnahmen von der Regel und ihre Voraussetzungen prüfen", "context": "Die Antwort muss sagen, "
            "wann die Regel nicht gilt.", "subtasks": ["Ausnahme Voraussetzungen"]}, ensure_ascii=False),
        "outline_example": json.dumps({"answerable": True, "items": [
            {"task": "Ausnahmen und ihre Voraussetzungen", "subtasks": ["Ausnahme zulassen Voraussetzungen"]}]},
            ensure_ascii=False),
        "example_info": "Prüfaufzeichnungen sind zehn Jahre nach der Prüfung aufzubewahren.",
    },
    "en": {
        "analysis_example": json.dumps({
            "key_concepts": ["limit"], "entities": ["Section 5"], "scope": "The question asks for the rule, not "
            "for its enforcement.", "assumed_context": [], "knowledge_gaps": ["Whether an exception applies."]}),
        "plan_example": json.dumps({
            "task": "Check the exceptions to the rule and their conditions", "context": "The answer must say when "
            "the rule does not apply.", "subtasks": ["exception conditions"]}),
        "outline_example": json.dumps({"answerable": True, "items": [
            {"task": "Exceptions and their conditions", "subtasks": ["exception permitted conditions"]}]}),
        "example_info": "Inspection records must be kept for ten years after the inspection.",
    },
}


def examples(language: str) -> dict[str, str]:
    return EXAMPLES.get(language, EXAMPLES["en"])


# --- phase 3: deep extraction ---------------------------------------------------------------------

EXTRACT = Prompt(
    "research.extract",
    system=(
        "Read the evidence for research tasks. Each excerpt has a label (S1, S2, ...), its document, page and "
        "section, and numbered sentences ([1], [2], ...) that the search picked from the document; (…) marks text "
        "left out. For every excerpt that helps with the task or the research question, give:\n"
        "- excerpt: its label.\n"
        "- relevance: 3 = it answers its task directly; 2 = it gives a fact the answer needs (a condition, an "
        "exception, a definition, a number, a deadline, who is responsible); 1 = background only.\n"
        "- quote: the numbers of the sentences of that excerpt that state what helps (at most 3): the sentence "
        "with the figure, deadline or rule itself, not its heading.\n"
        "{info_rule}"
        "Leave out excerpts that do not help; an empty readings list is a valid answer.\n"
        "requests: more text to read, usually none. When an excerpt breaks off, shows only part of its passage "
        "((…)) or refers to text you must read, and that text may hold what the task needs, ask (at most "
        "{max_requests}): neighbours (source: its label) for the whole passage and the text around it; pages (doc, "
        "page_from, page_to); keyword (doc, query: exact words); semantic (query; optionally doc, tag, page_from, "
        "page_to as filters).\n"
        "Documents you may name in requests: {registry}"
    ),
    example=_example(
        "Example. Task: How long must inspection records be kept?",
        "Excerpt S1 (Example Act.pdf, p. 4, § 9 Records):",
        "[1] (1) The operator keeps a record of every inspection.",
        "[2] The records are kept for ten years after the inspection; § 12 applies accordingly.",
        "Excerpt S2 (Example Act.pdf, p. 7, § 20 Entry into force):",
        "[1] This Act enters into force on 1 January 2020.",
        "Answer: {extract_answer}",
    ),
    user=(
        "Research question: {question}\n"
        "Scope: {scope}\n"
        "Avoid: {avoid}\n"
        "{tasks}\n"
        "{excerpts}\n\n"
        "{requests_note}Answer as JSON."
    ),
    max_tokens=40,  # per excerpt of the batch: a reading is a label, a grade and sentence numbers
)

EXTRACT_MORE = (
    "Requested text:\n{served}\n\n{notes}"
    "Give readings (the same JSON) for these new excerpts, and again for an earlier excerpt only when its reading "
    "changes with them. {last_turn}"
)
NO_TIME_FOR_REQUESTS = "No time is left for more text: leave requests empty.\n"
# The documents are in another language than the answer: each reading also says what it holds in the answer's
# language, so that the answer's statements can be checked against it.
INFO_RULE = ("- info: what the excerpt says that helps, in {language}, in one short sentence, with numbers, units, "
             "deadlines and conditions exactly as the excerpt gives them.\n")


def extract_answer(translated: bool, language: str) -> str:
    """The example answer of ``EXTRACT``: with the reading's line in the answer's language, or without."""
    reading: dict[str, object] = {"excerpt": "S1", "relevance": 3, "quote": [2]}
    if translated:
        reading["info"] = examples(language)["example_info"]
    return json.dumps({"readings": [reading], "requests": []}, ensure_ascii=False)
EXTRACT_LAST_TURN = "This is the last turn: further requests will not be served."
REFERENCE_NOTE = "reached by following '{via}' from {origin}; it may not help the task at all"

TASK_SUMMARY = Prompt(
    "research.summarize",
    system=(
        "Summarise what the findings establish for one research task, in {language}: a summary of one or two "
        "sentences with the figures and conditions the findings give, and at most two questions they leave "
        "open. Add nothing the findings do not say."
    ),
    user="Research question: {question}\n\nTask: {task}\n\nFindings:\n{findings}\n\nAnswer as JSON, its texts in {language}.",
    max_tokens=250,
)

# --- phase 3.5: drift filter --------------------------------------------------------------------------

DRIFT = Prompt(
    "drift.score",
    system=(
        "Judge how relevant each finding is to the research question as the user fixed it. Score: 3 = it answers "
        "part of the question directly; 2 = the answer needs it (a condition, exception, definition); 1 = "
        "background only; 0 = off the question, or about something the user wants to avoid. scores: one number "
        "per finding, in the order the findings are listed. reasons: only for the findings you score 0 or 1, "
        "their id and a reason of at most eight words in {language}."
    ),
    user=(
        "Research question: {question}\n"
        "Refined question: {summary}\n"
        "Scope: {scope}\n"
        "Key entities: {entities}\n"
        "Avoid: {avoid}\n\n"
        "Findings:\n{findings}\n\n"
        "Give {n} scores, the first for the first finding. Answer as JSON, its texts in {language}."
    ),
    max_tokens=4,  # per finding, plus room for the reasons
)
