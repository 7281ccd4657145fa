"""Scoring helpers for ``answer_quality.py``: the corpus' verbatim rule, gold evidence pages, key facts
derived from a gold answer, and the figures read back from a research run's output folder.

Nothing here trusts the report's own flags: a quote marked verified is checked again against the text
PyMuPDF extracts from the cited page, with the corpus' verbatim rule (``../shared/corpus/README.md``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

# --- gold evidence pages ----------------------------------------------------------------------------


def gold_pages(question: dict[str, Any]) -> set[tuple[str, int]]:
    pages = set()
    for e in question.get("evidence") or []:
        first = int(e["page"])
        for page in range(first, int(e.get("page_end") or first) + 1):
            pages.add((Path(e["doc"]).name, page))
    return pages


def on_gold(items: list[dict[str, Any]], gold: set[tuple[str, int]]) -> bool:
    return any((Path(str(i.get("doc", ""))).name, int(i.get("page") or 0)) in gold for i in items)


# --- key facts of a gold answer -----------------------------------------------------------------------

_WORDS = {"null": 0, "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8,
          "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12, "zwanzig": 20, "dreißig": 30, "hundert": 100,
          "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30}
_WS = re.compile(r"\s+")
_WORD_RE = re.compile(r"\b(" + "|".join(_WORDS) + r")\b", re.I)
_SCALE = {"mn": "million", "mio": "million", "bn": "billion", "mrd": "billion",
          "prozent": "%", "percent": "%", "per cent": "%"}
_SCALE_RE = re.compile(r"(?<=\d)\s*(" + "|".join(map(re.escape, _SCALE)) + r")\b", re.I)
_LEGAL_BEFORE = re.compile(r"(?:§+|\babs\.?|\babsatz|\bnr\.?|\bnummer|\bsatz|\bart\.?|\bartikel)\s*$", re.I)
_VERBS = {"is", "are", "was", "were", "has", "have", "had", "refers", "will", "would", "and", "or", "to"}
_NUMBER = re.compile(r"(?<![\w.,])[-−]?\d[\d.,]*\d|(?<![\w.,])\d")
_MONTHS = ("januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|january|february|"
           "march|may|june|july|october|december")
_STOP = {"the", "a", "an", "yes", "no", "in", "for", "and", "of", "on", "at", "by", "to", "with", "as", "its",
         "their", "his", "her", "this", "that", "these", "there", "it", "fy", "from", "vs", "than", "or",
         "und", "oder", "bis", "im", "in", "der", "die", "das", "des", "dem", "den", "je", "pro", "von", "zu",
         "zum", "zur", "für", "mit", "bzw", "nach", "vor", "ab", "auf", "aus", "bei", "über", "unter", "sowie"}


def _canon_number(token: str) -> str:
    """'1,234.50' / '1.234,5' / '11588.00' / '0,3' -> '1234.5' / '1234.5' / '11588' / '0.3'."""
    token = token.replace("−", "-")
    seps = [i for i, ch in enumerate(token) if ch in ".,"]
    if not seps:
        return token
    last = seps[-1]
    decimal = token[last] if len({token[i] for i in seps}) == 2 else None
    if decimal is None:  # one kind of separator: thousands when every group after it has three digits
        groups = re.split(r"[.,]", token)
        thousands = all(len(g) == 3 for g in groups[1:]) and groups[0].lstrip("-") not in ("", "0")
        decimal = None if thousands else token[last]
        if decimal and len(seps) > 1:
            return token  # '1.2.3': not a number we understand
    whole, frac = (token[:last], token[last + 1:]) if decimal else (token, "")
    whole = re.sub(r"[.,]", "", whole)
    frac = frac.rstrip("0")
    return f"{whole}.{frac}" if frac else whole


def fact_norm(text: str, fold: bool = True) -> str:
    """The form in which facts are looked for: NFKC, case-folded, currency signs dropped, numbers in one
    canonical form (decimal point, no thousands separators, no trailing zeros), number words as digits,
    'mn'/'bn'/'Prozent'/'percent' spelled one way."""
    text = unicodedata.normalize("NFKC", text).replace("\u00a0", " ")
    text = _WORD_RE.sub(lambda m: str(_WORDS[m.group(1).lower()]), text)
    text = text.casefold() if fold else text
    text = re.sub(r"[$€£]", " ", text)
    text = re.sub(r"(?<=\w)['’]s\b", "", text)  # Amcor's -> Amcor
    text = _NUMBER.sub(lambda m: _canon_number(m.group(0)), text)
    text = _SCALE_RE.sub(lambda m: " " + _SCALE[m.group(1).casefold()], text)
    text = re.sub(r"(?<=\d) %", "%", text)
    return _WS.sub(" ", text).strip()


def _num_pattern(number: str) -> str:
    return r"(?<![\w.-])" + re.escape(number) + r"(?!\d|\.\d)"


def key_facts(answer: str | None, question: str = "", lang: str = "") -> list[dict[str, str]]:
    """Facts of a gold answer worth finding in a report: numbers with their unit or the noun after them,
    percentages, amounts, dates, § references, abbreviations and (English) capitalised names. Each has its
    wording (``fact``, normalised) and a regular expression over ``fact_norm(text)`` (``pattern``). Facts
    the question itself already states are left out."""
    if not answer:
        return []
    answer = re.sub(r"(?m)^\s*[-•]\s*", "", answer)  # list bullets are no minus signs
    answer = re.sub(r"The answer here assumes .*", "", answer, flags=re.S)  # FinanceBench's note on fiscal years
    text = fact_norm(answer, fold=False)
    facts: dict[str, str] = {}
    dates = []
    for m in re.finditer(r"(?<![\d.])(\d+)\.\s*(" + _MONTHS + r")(?:\s+(\d{4}))?", text, re.I):  # 31. Dezember 2022
        facts[m.group(0)] = (_num_pattern(m.group(1)) + r"\.?\s*" + m.group(2).casefold()
                             + (rf"\s+{m.group(3)}" if m.group(3) else ""))
        dates.append(m.span())
    number_re = r"(?<![\w.-])(-?\d+(?:\.\d+)?)(?:\s*(%)|\s+(million|billion)|\.?\s+([^\W\d_][\w-]{2,}))?"
    for m in re.finditer(number_re, text):
        number, pct, scale, word = m.groups()
        if any(a <= m.start() < b for a, b in dates) or _LEGAL_BEFORE.search(text[:m.start()]):
            continue
        year = re.fullmatch(r"(19|20)\d\d", number)
        noun = word and word.casefold() not in _STOP and not re.fullmatch(_MONTHS, word, re.I) and not year and (
            word[0].isupper() or len(word) <= 4 and word.lower() != word if lang == "de"  # nouns, units (mSv)
            else word.casefold() not in _VERBS)
        if pct or scale:
            facts[m.group(0)] = _num_pattern(number) + (r"\s*%" if pct else rf"\s*{scale}")
        elif noun:
            stem = re.escape(word[:max(4, len(word) - 3)].casefold())  # "Kalendertagen" also as "Kalendertage"
            facts[f"{number} {word}"] = _num_pattern(number) + r"\.?\s*" + stem + r"[\w-]*"
        elif "." in number or len(number.lstrip("-")) >= 3 and not year:
            facts[number] = _num_pattern(number)
    for m in re.finditer(r"§+\s*(\d+[a-z]?)", text):  # § 12 Abs. 1 -> "§ 12"
        facts[f"§ {m.group(1)}"] = r"§+\s*" + re.escape(m.group(1)) + r"(?![\da-z])"
    raw = unicodedata.normalize("NFKC", answer)
    names = set(re.findall(r"\b[A-Z][A-Za-z]*[A-Z][A-Za-z]*\b(?![\d-])", raw))  # BASE, EMEA, StrlSchG
    names = {n for n in names if len(n) >= 3}
    if lang == "en":  # capitalised names: several words, or one word not starting a sentence
        for m in re.finditer(r"\b[A-Z][A-Za-z&'-]*(?:\s+(?:(?:of|the|and|&|[A-Z]\.)\s+)*[A-Z][A-Za-z&'-]*)*\b(?!\d)", raw):
            words = [re.sub(r"'s$", "", w) for w in m.group(0).split()]
            initial = not raw[:m.start()].strip() or raw[:m.start()].rstrip()[-1] in ".!?:;-("
            while words and words[0].casefold() in _STOP:
                words.pop(0)
                initial = False
            if len(words) > 1 or (words and not initial and len(words[0]) > 3):
                names.add(" ".join(words))
    for name in names:
        facts[name] = r"(?<!\w)" + re.escape(fact_norm(name)) + r"(?!\w)"
    q = fact_norm(question)
    kept, patterns = [], set()
    for fact, pattern in facts.items():
        if pattern not in patterns and not re.search(pattern, q):
            patterns.add(pattern)
            kept.append({"fact": fact, "pattern": pattern})
    if not kept and len(answer.split()) <= 4 and answer.strip().casefold().strip(".") not in ("yes", "no", "ja", "nein"):
        short = fact_norm(answer).strip(" .")
        kept = [{"fact": answer.strip(" ."), "pattern": r"(?<!\w)" + re.escape(short) + r"(?!\w)"}]
    return kept


def facts_found(facts: list[dict[str, str]], text: str) -> list[str]:
    norm = fact_norm(text or "")
    return [f["fact"] for f in facts if re.search(f["pattern"], norm)]


# --- gold facts of a research question ------------------------------------------------------------------


def gold_facts(question: dict[str, Any]) -> list[dict[str, str]]:
    """The facts of a research question (``benchmarks/questions/*-research.jsonl``), each as ``fact`` (its
    id) and a ``pattern`` that finds any of its keys, German or English, in ``fact_norm`` of an answer. A key
    may not start inside a word or number ("20 millisievert" is not found in "120 Millisievert")."""
    out = []
    for fact in question.get("facts") or []:
        keys = [*(fact.get("keys") or []), *(fact.get("keys_en") or [])]
        alternatives = "|".join(re.escape(fact_norm(k)) for k in keys if k.strip())
        out.append({"fact": fact["id"], "pattern": rf"(?<![\w.,])(?:{alternatives})"})
    return out


def fact_pages(question: dict[str, Any]) -> set[tuple[str, int]]:
    """The pages the facts of a research question stand on (the gold pages of its recall)."""
    return {(Path(f["doc"]).name, int(f["page"])) for f in question.get("facts") or []}


def pages_of(items: list[dict[str, Any]], gold: set[tuple[str, int]]) -> set[tuple[str, int]]:
    """The gold pages among the (doc, page) of ``items`` (citations or findings)."""
    return {(Path(str(i.get("doc", ""))).name, int(i.get("page") or 0)) for i in items} & gold


# --- what a run read, followed and asked for (state.json and audit.jsonl of its output folder) ----------------


def _audit(out: Path) -> list[dict[str, Any]]:
    try:
        lines = (out / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    return [json.loads(line) for line in lines if line.strip()]


def _requests_in(call: dict[str, Any]) -> int:
    """Context requests in the last answer of an extraction call (the answer the engine served)."""
    attempts = call.get("attempts") or []
    raw = attempts[-1].get("raw", "") if attempts else ""
    try:
        requests = json.loads(raw).get("requests")
    except (ValueError, AttributeError):
        return 0
    return len(requests) if isinstance(requests, list) else 0


def run_figures(out: Path) -> dict[str, Any]:
    """How deep a run went: the distinct excerpts the model read (chunks, served requests not counted) of
    those the engine gathered, references followed, context requests the model made, task summaries, the
    findings by tier, and the prompt tokens the server took from its cache."""
    state = read_json(out / "state.json")
    state = state if isinstance(state, dict) else {}
    research = (state.get("later") or {}).get("research") or {}
    audit = _audit(out)
    calls = [e for e in audit if e.get("type") == "llm_call"]
    findings = research.get("findings") or []
    found = sum(int(t.get("found") or 0) for t in research.get("tasks") or [])
    usage = state.get("usage") or {}
    return {
        "sources_read": len(set(research.get("visited") or [])),
        "sources_found": found if "gathered" in research else None,  # older engines gathered nothing of their own
        "references_followed": sum(1 for e in audit if e.get("type") == "reference_followed"),
        "context_requests": sum(_requests_in(c) for c in calls if c.get("purpose") == "research.extract"),
        "task_summaries": sum(1 for t in research.get("tasks") or [] if t.get("summary")),
        "summary_calls": sum(1 for c in calls if c.get("purpose") == "research.summarize"),
        "findings_by_tier": [sum(1 for f in findings if f.get("tier") == t) for t in (1, 2, 3)],
        "cached_tokens": usage.get("cached_tokens"),
    }


# --- figures read back from a run's output folder ---------------------------------------------------------


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def usage_of(out: Path, report: dict[str, Any] | None, stdout_summary: dict[str, Any] | None) -> dict[str, Any]:
    """LLM calls and tokens: report.json ``run``, else summary.json / the --json summary ``usage``, else
    audit.jsonl (the last token_usage total, or the sum over llm_call events)."""
    if report and isinstance(report.get("run"), dict):
        run = report["run"]
        return {"llm_calls": run.get("llm_calls"), "prompt_tokens": run.get("prompt_tokens"),
                "completion_tokens": run.get("completion_tokens"), "tokens_from": "report.json"}
    for name, summary in (("summary.json", read_json(out / "summary.json")), ("stdout", stdout_summary)):
        usage = (summary or {}).get("usage") if isinstance(summary, dict) else None
        if isinstance(usage, dict):
            return {"llm_calls": usage.get("calls"), "prompt_tokens": usage.get("prompt_tokens"),
                    "completion_tokens": usage.get("completion_tokens"), "tokens_from": name}
    total, summed = None, {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    try:
        lines = (out / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    for line in lines:
        with_event = json.loads(line) if line.strip() else {}
        if with_event.get("type") == "token_usage" and isinstance(with_event.get("total"), dict):
            total = with_event["total"]
        elif with_event.get("type") == "llm_call" and isinstance(with_event.get("usage"), dict):
            for key in summed:
                summed[key] += int(with_event["usage"].get(key) or 0)
    if total or summed["calls"]:
        use = total or summed
        return {"llm_calls": use.get("calls"), "prompt_tokens": use.get("prompt_tokens"),
                "completion_tokens": use.get("completion_tokens"), "tokens_from": "audit.jsonl"}
    return {"llm_calls": None, "prompt_tokens": None, "completion_tokens": None, "tokens_from": None}
