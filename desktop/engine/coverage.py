"""Every task the research found evidence for is in the answer: where the model's statements leave a task
of the plan out, or cite it without a figure its best verified quote states for it, the answer gets that
quote, cited, under a heading of its own. A task's evidence is its own findings and any other finding whose
quotes answer it (``focus.answers``): what one part gathered, the next does not gather again.

Seen with a 1.5B model on a question that asked for five facts: the evidence held all five, the model wrote
three statements and stopped. In --auto a question that asks several things is planned by its parts
(``question_parts``), so a task left out is a part of the question left unanswered. The line added is the
document's own words (or, over documents in another language, the reading's line in the answer's
language), never a sentence the engine makes up. Seen (laws-research-11): a statement cited the finding that
states "sechs Monate" for the deadline asked for and said no period; the period stood in no line of the
answer.

A plan by the question's parts shows every part's evidence, whatever the statements say: the brief answer a
small model writes under a binding budget gives a part one sentence, often without its figure or with a wrong
one, and the reviewer checks it against the document's sentence. A line is one sentence (the one that answers
the part best), not the start of a passage; a part's best finding adds the sentences that state other figures
of the kind the part asks for (``figure_kinds``) that the answer lacks.

Over documents in another language the task's words are not the quote's, so a finding is weighed by its
reading, the line the model wrote in the answer's language — where that reading states no figure its quotes
do not (``faithful``); one that does is shown by its quote (seen, laws-research-12: "category A above 100
mSv" read from a quote of "mehr als 1 Millisievert")."""

from __future__ import annotations

from desktop.engine.answer_kinds import asks_kind, holds_kind
from desktop.engine.citation_support import stated_amounts, support
from desktop.engine.closeness import Meaning, closeness
from desktop.engine.figure_kinds import asked_kinds, kinded_figures, new_figures, said_figures
from desktop.engine.findings import MARKER, kept_findings
from desktop.engine.focus import MIN_OVERLAP, answers, asks_for_figure, figures, score
from desktop.engine.line_sentences import MAX_CHARS, Sentence, sentences, sentences_of
from desktop.engine.named_bodies import asks_for_body, names_body
from desktop.engine.rarity import Rarity
from desktop.engine.research_state import Finding
from desktop.engine.sentences import past_shared_start
from desktop.engine.state import Plan, Todo, by_parts
from desktop.engine.step_context import StepContext
from desktop.report.labels import LABELS, QUOTE_MARKS

MORE_PER_TASK = 2  # lines per task, besides its best, for figures of the kind it asks for the answer lacks


def cited_tasks(answer: str, sources: list[str], findings: dict[str, Finding]) -> set[int]:
    """The tasks the answer cites a finding of (``sources``: finding ids in the order of their [n])."""
    numbers = {int(n) for n in MARKER.findall(answer)}
    return {findings[sources[n - 1]].task_id for n in numbers if 1 <= n <= len(sources) and sources[n - 1] in findings}


def _aim(task: Todo, question: str) -> str:
    return f"{question}\n{task.task} {' '.join(task.subtasks)}"


def _quote(f: Finding, task: Todo, question: str, language: str, rare: Rarity | None = None) -> str:
    """The sentence of the finding's verified quotes that answers the task best, as a line shows it
    (``_best``)."""
    return _best(f, task, question, language, rare).shown


def _best(f: Finding, task: Todo, question: str, language: str, rare: Rarity | None = None) -> Sentence:
    """The sentence of the finding's verified quotes that answers the task best (a finding quotes every sentence
    of its excerpt the engine showed, the model's pick first; a figure counts where the task asks for one); of
    two as good, the one holding the task's rarer words among the evidence (``rare``, ``rarity.Rarity``). Each is
    weighed whole, with the start of its sentence a line may leave out (seen, laws-research-10: "1. bei Erwerb
    und Abgabe hochradioaktiver Strahlenquellen unverzüglich die Angaben entsprechend Anlage 9 …", whose lead
    "… dass dem Register über hochradioaktive Strahlenquellen … mitgeteilt wird:" names the register the part
    asks about, lost to another section's sentence on the register). Seen: a passage cut at ``MAX_CHARS`` lost the
    figure its fourth sentence states ("… mindestens 120 Lerneinheiten …")."""
    aim, wants = _aim(task, question), asks_for_figure(task.task)

    def fit(s: Sentence) -> tuple[bool, bool, float, float]:
        text = s.whole
        return (answers(task.task, text, language), _kinded(task, text, language), score(aim, text, language, wants),
                rare.share(task.task, text) if rare else 0.0)
    return max(sentences_of(f), key=fit, default=Sentence("", ""))


def faithful(f: Finding) -> bool:
    """The finding's reading states no figure its verified quotes do not."""
    return stated_amounts(f.info) <= stated_amounts(f.quoted)


def _by_reading(f: Finding, answer_language: str | None, language: str) -> bool:
    """Whether ``f`` is weighed by its reading: the documents are in another language than the answer, and
    the model wrote what the excerpt holds in the answer's."""
    return answer_language is not None and answer_language != language and bool(f.info.strip())


def _candidates(task: Todo, kept: list[Finding], language: str, answer_language: str | None = None) -> list[Finding]:
    """The findings that may answer ``task``: its own, and another task's whose quote (or reading, across
    languages) answers it (seen: the part "Der Grenzwert für die Summe der effektiven Dosen über das gesamte
    Berufsleben?" gathered nothing of § 77 StrlSchG, which the part before it had gathered first; the answer
    never stated its 400 Millisievert)."""
    def answered(f: Finding) -> bool:
        if _by_reading(f, answer_language, language):
            return answers(task.task, f.info, answer_language)  # type: ignore[arg-type]
        return answers(task.task, f.quoted, language)
    return [f for f in kept if f.verified_quotes and (f.task_id == task.id or answered(f))]


def _kinded(task: Todo, text: str, language: str) -> bool:
    """Whether ``text``, a sentence about ``task`` (``MIN_OVERLAP`` of its words), holds the kind of answer it asks
    for (``answer_kinds.holds_kind``)."""
    return asks_kind(task.task) and support(task.task, text, language) >= MIN_OVERLAP and holds_kind(task.task, text)


def _ranked(task: Todo, question: str, candidates: list[Finding], language: str,
            answer_language: str | None = None, rare: Rarity | None = None) -> list[Finding]:
    """The findings best first: those whose best sentence answers the task (``focus.answers``; a part asking which
    authority only where it names one), then those whose sentence holds the kind of answer it asks for
    (``_kinded``), then tier 1, then by how well that sentence answers it (a figure counts where the task asks
    for one); across languages by how well a reading does, one whose figure its quote states first (a finding
    without a reading is weighed by its quote, whose words are not the task's: it comes after a tier-1 reading);
    ``candidates`` hold verified quotes (``_candidates``)."""
    aim, wants = _aim(task, question), asks_for_figure(task.task)

    def fit(f: Finding) -> tuple[bool, bool, bool, bool, float, bool]:
        if _by_reading(f, answer_language, language):
            # a reading whose figure its quote states answers a task that asks for one, even where it adds one
            # its quote does not (seen: "six months after the deployment and within 24 hours", from "spätestens
            # sechs Monate nach dem Einsatz … unverzüglich"); it is shown by that quote's sentence
            backed = wants and bool(stated_amounts(f.info) & stated_amounts(f.quoted))
            return (True, f.tier == 1, backed, faithful(f), score(task.task, f.info, answer_language, wants),  # type: ignore[arg-type]
                    f.task_id == task.id)
        # a sentence that answers the task comes before the tier (seen: the tier-2 finding held "in den Stufen
        # „tauglich“, „bedingt tauglich“ …", the tier-1 one the paragraph before it, laws-research-02); across
        # languages the task's words say nothing of a quote's
        said = _best(f, task, question, language, rare).whole
        fits = answers(task.task, said, language) or (answer_language or language) != language
        fits = fits and (names_body(said) or not asks_for_body(task.task))
        # a part that asks for a figure is answered by a sentence that states one of its kind, not by one that
        # only shares its words (seen, laws-research-11: "Die Aufbewahrungsdauer der Aufzeichnungen über das
        # Vorkommnis?" showed "… für welchen Zeitraum er diesbezügliche Aufzeichnungen aufzubewahren hat", the
        # ordinance's power; "… 30 Jahre lang aufbewahrt …" stood in the part's other finding); at a tie, the
        # task's own finding: what was gathered for the part over what was gathered for another
        return fits, _kinded(task, said, language), f.tier == 1, True, score(aim, said, language, wants), \
            f.task_id == task.id
    return sorted(candidates, key=fit, reverse=True)


def _unstated(task: Todo, f: Finding, answer: str, language: str, question: str = "",
              answer_language: str | None = None, rare: Rarity | None = None) -> bool:
    """The finding's quote answers the task with a figure the answer does not state (seen: a quote of "400
    Millisievert" and "10 Millisievert"; the answer stated the 10). Across languages, figures compare as
    numbers ("six months", "sechs Monate"), those of the reading where it is faithful; the task's own
    finding, or one whose reading answers it, answers it."""
    said = MARKER.sub(" ", answer)
    if _by_reading(f, answer_language, language):
        given = stated_amounts(f.info) if faithful(f) and stated_amounts(f.info) else \
            stated_amounts(_quote(f, task, question, language, rare))
        return bool(given - stated_amounts(said)) and (f.task_id == task.id or answers(task.task, f.info, answer_language))  # type: ignore[arg-type]
    quote = _quote(f, task, question, language, rare)
    return bool(figures(quote) - figures(said)) and answers(task.task, quote, language)


def _said(task: Todo, f: Finding, question: str, doc_language: str, answer: str = "",
          answer_language: str | None = None, rare: Rarity | None = None) -> tuple[str, bool]:
    """What a line shows of ``f`` for ``task``: the reading's line in the answer's language where it is faithful
    (documents in another language) and not already a statement of ``answer``, else its best verified
    sentence; and whether that is a quote (seen: a brief answer's statements were the readings, word for word,
    and a line repeating them showed the reviewer nothing new)."""
    reading = " ".join(f.info.split())
    if reading and faithful(f) and reading.rstrip(". ") not in " ".join(MARKER.sub("", answer).split()):
        return reading, False
    if _by_reading(f, answer_language, doc_language):
        return _read_sentence(f, reading), True
    return _quote(f, task, question, doc_language, rare), True


def _read_sentence(f: Finding, reading: str) -> str:
    """Across languages the task's words are not the sentence's: the sentence that states a figure the reading
    states, else the first (the model's pick)."""
    found = sentences(f)
    return next((text for text in found if stated_amounts(text) & stated_amounts(reading)), found[0] if found else "")


def _line(task: Todo, said: str, quoted: bool, n: int, language: str) -> str:
    return _quoted_line(task, said, n, language) if quoted else _shown_line(task, said, n)


def _quoted_line(task: Todo, text: str, n: int, language: str) -> str:
    """The quote between the answer language's quotation marks, with " …" where it stops before its sentence
    ends: cut at ``MAX_CHARS``, or at the end of the passage it stands in (seen, laws-research-14: the sentence
    went on over a page break, "… an eine Anlage des Bundes zur", and the line read as if it were whole)."""
    left, right = QUOTE_MARKS["de" if language == "de" else "en"]
    shown = text if len(text) <= MAX_CHARS else text[:MAX_CHARS].rsplit(" ", 1)[0] + " …"
    if shown and (shown[-1].isalnum() or shown[-1] in ",-–"):
        shown += " …"
    return _shown_line(task, left + shown + right, n)


def _title(task: Todo) -> str:
    return " ".join(task.task.split()).rstrip("?")


def _shown_line(task: Todo, said: str, n: int) -> str:
    return f"- {_title(task)}: {said} [{n}]"


def _units(f: Finding, answer_language: str | None, language: str) -> list[tuple[str, str, bool]]:
    """What of ``f`` a line may show, each as (text, its language, whether it is the document's words): its
    faithful reading across languages, else each sentence of its verified quotes."""
    if _by_reading(f, answer_language, language) and faithful(f):
        return [(" ".join(f.info.split()), answer_language or language, False)]
    return [(text, language, True) for text in sentences(f)]


def _more(task: Todo, f: Finding, answer: str, language: str, answer_language: str | None,
          kinds: set[str] | None = None) -> list[tuple[str, bool]]:
    """Up to ``MORE_PER_TASK`` units of ``f`` that state a figure of a kind in ``kinds`` (by default those the
    task asks for) that ``answer`` (with the lines so far) does not state as that kind, those sharing most of the
    task's words first; each (text, quoted). Seen (laws-research-14): the part asked for two periods, its finding
    stated both in two sentences, its one line showed one."""
    kinds = asked_kinds(task.task) if kinds is None else kinds
    if not kinds and not asks_for_figure(task.task):
        return []
    scored = [(support(task.task, text, lang), text, quoted)
              for text, lang, quoted in _units(f, answer_language, language)]
    said, out = said_figures(MARKER.sub(" ", answer)), []
    for overlap, text, quoted in sorted(scored, key=lambda u: -u[0]):
        if len(out) < MORE_PER_TASK and overlap >= MIN_OVERLAP and new_figures(text, said, kinds):
            for value, of in said_figures(text).items():
                said[value] = said.get(value, set()) | of
            out.append((text, quoted))
    return out


def _further(task: Todo, best: Finding, ranked: list[Finding], answer: str, shown: list[str], language: str,
             answer_language: str | None) -> list[tuple[Finding, str, bool]]:
    """The lines after a task's best (``shown``: its text, if shown), each (finding, text, quoted): the units of
    its best finding with figures the answer lacks (``_more``), then, for a part that asks for figures of two
    kinds while its lines state one, those of the kind it lacks from its other tier-1 findings (seen,
    laws-research-03: "Frist, Aufbewahrung der Ergebnisse und Dosis" showed the dose of one finding; the
    period and the retention stood in the part's other finding). Other findings only for a kind the lines lack:
    another finding's sentence with a figure of a kind asked is as often about something else (a Behörde's own
    four-week check for the operator's notice period; replayed on the runs of RESULTS §20, taking them for every
    part added 17 lines and no fact besides these two; 13 of the lines were off their part)."""
    out = [(best, text, quoted) for text, quoted in _more(task, best, answer, language, answer_language)]
    kinds = asked_kinds(task.task)
    for f in ranked if len(kinds) > 1 else []:
        lacking = kinds - {kind for text in [*shown, *(t for _, t, _ in out)]
                           for of in kinded_figures(text).values() for kind in of}
        if not lacking:
            break
        if f is not best and f.task_id == task.id and f.tier == 1:
            so_far = "\n".join([answer, *(t for _, t, _ in out)])
            out += [(f, text, quoted) for text, quoted in _more(task, f, so_far, language, answer_language, lacking)]
    return out


async def meaning(ctx: StepContext) -> Meaning:
    """Across languages, how close in meaning each part of a question by its parts is to each sentence of the
    kept findings (the knowledge base's multilingual embedder); in one language, or for another plan, nothing.
    Seen (laws-research-08, -13, English parts over the German laws): the model's reading of a finding
    named its first sentence, and the sentence that answered another part ("Die Genehmigung wird auf
    längstens fünf Jahre befristet.", "… fünf Jahre lang aufzubewahren.") was never shown."""
    state = ctx.state
    if not by_parts(state) or state.language == state.doc_language:
        return {}
    parts = {t.id: t.task for t in state.plan.items if t.id != 0}
    texts = sorted({text for f in kept_findings(ctx) for text in sentences(f)})
    return await ctx.in_thread(closeness, ctx.kb, parts, texts) if parts and texts else {}


def _closest(task: Todo, kept: list[Finding], shown: set[str],
             close: dict[str, float]) -> tuple[Finding, tuple[str, bool]] | None:
    """The kept sentence closest in meaning to ``task`` that no line shows yet, one holding the kind of answer it
    asks for (``answer_kinds.holds_kind``: a figure of its kind, a named body); with its finding, as a quote."""
    pool = [(close[text], f, text) for f in kept for text in sentences(f)
            if text in close and text not in shown and holds_kind(task.task, text)]
    if not pool:
        return None
    _, f, text = max(pool, key=lambda p: p[0])
    return f, (text, True)


def _in_turn(plan: Plan) -> list[Todo]:
    """The tasks that may get a line, in the order they get it. A plan by the question's parts answers the
    question (task 0) through its parts. A plan the model made has tasks beside the question, and the question
    comes last: where the model's answer leaves it without the figure it asks for and no task's line shows the
    sentence that states it, the question gets that line (seen, laws-dev-10: the tasks were "Strahlenschutzbereiche
    bei Oberflächen" and the like; the answer cited § 80's limit for the public, and § 52's "Kontrollbereich, wenn
    Personen im Kalenderjahr eine effektive Dosis von mehr als 6 Millisievert …" stood in the question's own
    finding, in no line)."""
    if plan.by_parts:
        return [t for t in plan.items if t.id != 0 or len(plan.items) == 1]
    return sorted(plan.items, key=lambda t: t.id == 0)


def _number(sources: list[str], f: Finding) -> int:
    """The [n] of ``f`` in ``sources``, appended where it is not yet numbered."""
    if f.id not in sources:
        sources.append(f.id)
    return sources.index(f.id) + 1


def completed(ctx: StepContext, answer: str, sources: list[str], close: Meaning | None = None,
              heading: str = "evidence_by_task") -> tuple[str, list[str], list[int]]:
    """The answer with a line for each task of the plan it leaves out but found evidence for; returns the
    answer, the source list (a finding not yet numbered gets the next number) and the tasks given a line (a line
    may show another task's finding whose quote answers its task, ``_candidates``, so the task it answers is the
    line's, not the finding's); ``close``: across languages, each part's closeness in meaning to each kept
    sentence (``meaning``). An answer left empty
    (seen: a 1.5B model's only statement was a list's lead-in, "… hat die folgenden Pflichten:", and was
    left out) becomes each task's best verified quote, under ``heading`` (a key of ``LABELS``) that says so."""
    state = ctx.state
    if not state.plan:
        return answer, sources, []
    findings = {f.id: f for f in state.later.research.findings}
    kept = kept_findings(ctx)
    covered = cited_tasks(answer, sources, findings)
    sources, lines, lined = list(sources), [], []
    shown: set[str] = set()  # what the lines show already: each line its own evidence
    cited = {sources[n - 1] for n in map(int, MARKER.findall(answer)) if 1 <= n <= len(sources)}
    rare = Rarity((text for f in kept for text in sentences(f)), state.doc_language)
    for task in _in_turn(state.plan):
        # a part of the question is weighed by its own words: the whole question, which holds every part, made
        # the quote that shared most of its words the best for each part (seen: the question's first finding,
        # stating no period, was the best quote for the part that asks for one, laws-research-03)
        question = "" if state.plan.by_parts else state.question
        ranked = _ranked(task, question, _candidates(task, kept, state.doc_language, state.language),
                         state.doc_language, state.language, rare)
        # a sentence a line shows already gives way to the task's next best (one finding may hold the answers to
        # two parts in two sentences: "… vorher eine schriftliche Erklärung …", "… fünf Arbeitstage vor …")
        pick = next(((f, said) for f in ranked
                     for said in [_said(task, f, question, state.doc_language, answer, state.language, rare)]
                     if said[0] not in shown), None)
        if task.id == 0 and pick and ranked and pick[0] is not ranked[0]:
            continue  # the question's best sentence is shown already: a task's line answers it
        # across languages a reading that does not answer its part gives way to the sentence closest in meaning
        if (close or {}).get(task.id) and not (pick and answers(task.task, pick[0].info, state.language)):
            pick = _closest(task, kept, shown, close[task.id]) or pick  # type: ignore[index]
        if pick is None:
            continue
        best, (said, quoted) = pick
        # a part of the question always shows its evidence in the document's words: the model's one statement
        # of it may miss what the sentence states (seen: "ist 75 Jahre" for "bis die Person das 75. Lebensjahr
        # vollendet hat", laws-research-02), and the reviewer checks the statement against it
        own: list[tuple[Finding, str, bool]] = []
        if state.plan.by_parts or not (task.id in covered or best.id in cited) or \
                _unstated(task, best, "\n".join([answer, *lines]), state.doc_language, question, state.language, rare):
            own.append((best, said, quoted))
        own += _further(task, best, ranked, "\n".join([answer, *lines, said if own else ""]),
                        [said] if own else [], state.doc_language, state.language)
        done: list[str] = []  # the task's lines: a second part of one sentence goes on from the first
        for f, text, quoted in own:
            if text not in shown:
                shown.add(text)
                lines.append(_line(task, past_shared_start(text, done) if quoted else text, quoted,
                                   _number(sources, f), state.language))
                lined.append(task.id)
                done.append(text)
    if not lines:
        return answer, sources, []
    labels = LABELS["de" if state.language == "de" else "en"]
    lined = sorted(set(lined))
    if not answer.strip():
        return f"**{labels[heading]}:**\n" + "\n".join(lines), sources, lined
    block = f"**{labels['more_evidence']}:**\n" + "\n".join(lines)
    head = f"\n\n**{labels['open_points']}:**"
    body, _, rest = answer.partition(head)
    return f"{body}\n\n{block}" + (head + rest if rest else ""), sources, lined
