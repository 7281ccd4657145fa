"""Checks of what a model wrote, beyond its schema: search queries that are searches, lists without
near-duplicates, prose in the run's language, and a plan that calls the question unanswerable only when
the excerpts say so. Real small models fail each of these (seen: file names as queries, one gap repeated
five times in English for a German question, "nothing relevant" with the answering section in view)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable

from rapidfuzz import fuzz

from desktop.engine.prompts import LANGUAGE_NAMES, NOT_SEARCHES, WRONG_LANGUAGE
from desktop.kb.language import detect_language
from desktop.kb.search.lexical import STOPWORDS, index_terms

_FILE_NAME = re.compile(r"\.(?:pdf|docx?|txt|md|html?)\b", re.I)
_WORD = re.compile(r"[^\W\d_]{3,}")
_NUMBER = re.compile(r"\d+")
_MIN_WORDS_FOR_LANGUAGE = 8  # below this, function-word counting cannot tell German from English
NEAR_DUPLICATE = 90  # rapidfuzz token-sort ratio at which two list items say the same


def is_search(query: str) -> bool:
    """A query the index can use: no file name, and at least two words of three or more letters
    ("§ 5" alone finds every law's § 5)."""
    return not _FILE_NAME.search(query) and len(_WORD.findall(query)) >= 2


def search_check(queries: Callable[[object], list[str]]) -> Callable[[object], str | None]:
    def check(value: object) -> str | None:
        bad = [q for q in queries(value) if not is_search(q)]
        return NOT_SEARCHES.format(bad="; ".join(f"'{q}'" for q in bad)) if bad else None

    return check


def same_text(a: str, b: str) -> bool:
    """Near-duplicates: the same words reordered, a letter or two changed, case and spacing aside; never two texts
    that name other numbers (seen, a 1.5B model's plan: "Verfahren nach § 17" and "Verfahren nach § 199" were
    merged into "Verfahren nach § 18", and the section that answers the question, § 17, lost its to-do)."""
    return sorted(_NUMBER.findall(a)) == sorted(_NUMBER.findall(b)) and \
        fuzz.token_sort_ratio(" ".join(a.split()).casefold(), " ".join(b.split()).casefold()) >= NEAR_DUPLICATE


def distinct(texts: Iterable[str]) -> list[str]:
    """Stripped, in order, each once; near-duplicates (``same_text``) too. A text that adds words to
    another ("… for minors too") is not a duplicate."""
    out: list[str] = []
    for text in texts:
        text = " ".join(text.split())
        if text and not any(same_text(text, o) for o in out):
            out.append(text)
    return out


# A quotation keeps its source's language: an English answer quoting a German statute is English.
_QUOTATION = re.compile(r"[„“\"«»][^„“”\"«»]*[“”\"«»]")


def foreign(text: str, language: str) -> str | None:
    """The language ``text`` is written in, quotations left out, when it is long enough to tell and not
    ``language``."""
    if not _tellable(text):
        return None
    found = detect_language(_QUOTATION.sub(" ", text), default=language)
    return found if found != language else None


def in_language(texts: Iterable[str], language: str) -> list[str]:
    """The texts not recognisably written in another language."""
    return [t for t in texts if foreign(t, language) is None]


def language_check(language: str, texts: Callable[[object], list[str]]) -> Callable[[object], str | None]:
    """A check for structured answers: their prose must be in the run's language, each text of it long
    enough to tell (judged together, two German gaps outvoted two English ones)."""

    def check(value: object) -> str | None:
        found = next((f for t in texts(value) if (f := foreign(t, language)) is not None), None)
        if found is None:
            return None
        return WRONG_LANGUAGE.format(found=LANGUAGE_NAMES.get(found, found),
                                     language=LANGUAGE_NAMES.get(language, language))

    return check


def some_in_language(language: str, texts: Callable[[object], list[str]]) -> Callable[[object], str | None]:
    """``language_check`` for an answer whose texts in another language are left out one by one (an answer's
    statements, ``statements.why_left_out``): it fails only where no text long enough to tell is in
    ``language``. Seen (laws-research-04, -13, 1.5B model, English questions over German statutes): one
    statement of five copied a German reading, the whole answer was asked for again, up to three times (65 s
    each on 2 cores), and the run ended past its budget with an evidence report."""
    strict = language_check(language, texts)

    def check(value: object) -> str | None:
        if any(_tellable(t) and foreign(t, language) is None for t in texts(value)):
            return None
        return strict(value)

    return check


def _tellable(text: str) -> bool:
    return len(_QUOTATION.sub(" ", text).split()) >= _MIN_WORDS_FOR_LANGUAGE


def written_in(query: str, language: str) -> bool:
    """A search query is in ``language`` unless one of its words is a function word of the other (a query is
    a few words: one tells, as for a question)."""
    return detect_language(query, default=language, evidence=1) == language


def queries_in(language: str) -> Callable[[object], str | None]:
    """A check that every query of an answer is written in ``language`` (seen: a 1.5B model asked for German
    queries over German statutes wrote "Radiation protection rules for German aircrew")."""
    def check(value: object) -> str | None:
        if all(written_in(q, language) for q in value.queries):  # type: ignore[attr-defined]
            return None
        return WRONG_LANGUAGE.format(found="another language", language=LANGUAGE_NAMES.get(language, language))

    return check


def all_of(*checks: Callable[[object], str | None]) -> Callable[[object], str | None]:
    def check(value: object) -> str | None:
        return next((p for c in checks if (p := c(value))), None)

    return check


def _terms(text: str, language: str) -> set[str]:
    """Stemmed content words (stop words, numbers and short stems left out)."""
    return {t for t in index_terms(text, language).split() if len(t) >= 4 and t[0].isalpha()}


def _shared(wanted: set[str], found: set[str]) -> list[str]:
    """Question terms the text has, a German compound counting for its first part ("berufsleb" in
    "berufslebensdosis")."""
    return sorted(w for w in wanted if w in found or any(len(w) >= 5 and f.startswith(w) for f in found))


def subject_overlap(question: str, excerpts: list[str], share: float = 0.4) -> tuple[int, list[str]] | None:
    """The first excerpt (1-based) that holds at least ``share`` of the question's content terms (at least
    two), with those terms; None when no excerpt does. A plan that calls the question unanswerable with
    such an excerpt in view is overruled (asking the model again cost a minute on a CPU and changed
    nothing when tried)."""
    language = detect_language(question, evidence=1)
    wanted = _terms(question, language)
    if len(wanted) < 2:
        return None
    need = max(2, math.ceil(share * len(wanted)))
    for n, text in enumerate(excerpts, start=1):
        common = _shared(wanted, _terms(text, language))
        if len(common) >= need:
            return n, common
    return None


# Words of how one researches, not of what: a plan task of these alone names nothing the question does not
# (seen in §28's single-fact plans of a 1.5B model: "Entschlüsselung der relevanten Gesetze" and "Anwendung
# der relevanten Gesetze", two of laws-dev-08's four tasks, each with its own share of the reading and a
# part of the brief answer that said nothing; in the next runs "Verpflichtungen" and "Erklärungen", the latter's line
# a sentence on a witness's signature).
_HOW_WORDS = """
gesetz gesetze gesetzes gesetzen gesetzlich gesetzliche gesetzlichen vorschrift vorschriften regelung regelungen
bestimmung bestimmungen norm normen relevant relevante relevanten relevanter anwendung anwenden anwendbar
anwendbare anwendbaren entschlüsselung entschlüsseln analyse analysieren identifizierung identifizieren
ermittlung ermitteln überprüfung überprüfen untersuchung untersuchen recherche recherchieren zusammenfassung
zusammenfassen auswertung auswerten interpretation interpretieren auslegung auslegen rechtlich rechtliche
rechtlichen rechtsgrundlage rechtsgrundlagen grundlage grundlagen rahmen rechtsrahmen anforderung anforderungen
information informationen detail details aspekt aspekte thema frage fragen antwort antworten dokument dokumente
quelle quellen inhalt inhalte bedeutung kontext überblick verständnis klärung klären definition definitionen
erklärung erklärungen pflicht pflichten verpflichtung verpflichtungen
law laws legal regulation regulations regulatory rule rules provision provisions requirement requirements
applicable application apply applying analysis analyze analyse identify identification review research
summary summarize interpretation interpret framework legislation statute statutes information detail details
aspect aspects topic question answer document documents source sources content meaning context overview
understanding clarify clarification definition define determine examine study
them their they this these those
"""  # the last line: pronouns the stop-word list lacks
_HOW = {index_terms(w, lang) for w in _HOW_WORDS.split() for lang in ("de", "en")}


def names_nothing(text: str) -> bool:
    """A task of research words alone ("Anwendung der relevanten Gesetze", "Review the applicable
    regulations"): every content word of it, stemmed as German or as English, is a word of how one researches."""
    words = [w.casefold() for w in _WORD.findall(text) if w.casefold() not in STOPWORDS]
    return bool(words) and all(index_terms(w, "de") in _HOW or index_terms(w, "en") in _HOW for w in words)
