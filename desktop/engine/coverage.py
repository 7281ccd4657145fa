"""Every task the research found evidence for is in the answer: where the model's statements leave a task
of the plan out, or cite it without a figure its best verified quote states for it, the answer gets that
quote, cited, under a heading of its own. A task's evidence is its own findings and any other finding whose
quote answers it (``focus.answers``): what one part gathered, the next does not gather again.

Seen with a 1.5B model on a question that asked for five facts: the evidence held all five, the model wrote
three statements and stopped. In --auto a question that asks several things is planned by its parts
(``question_parts``), so a task left out is a part of the question left unanswered. The line added is the
document's own words (or, over documents in another language, the reading's line in the answer's
language), never a sentence the engine makes up. Seen (laws-research-11): a statement cited the finding that
states "sechs Monate" for the deadline asked for and said no period; the period stood in no line of the
answer.

Over documents in another language the task's words are not the quote's, so a finding is weighed by its
reading, the line the model wrote in the answer's language — where that reading states no figure its quotes
do not (``faithful``); one that does is shown by its quote (seen, laws-research-12: "category A above 100
mSv" read from a quote of "mehr als 1 Millisievert")."""

from __future__ import annotations

from desktop.engine.citation_support import stated_amounts
from desktop.engine.findings import MARKER, kept_findings
from desktop.engine.focus import answers, asks_for_figure, figures, score
from desktop.engine.research_state import Finding
from desktop.engine.state import Todo
from desktop.engine.step_context import StepContext
from desktop.report.labels import LABELS, QUOTE_MARKS

MAX_CHARS = 320  # a quote in the answer: the sentence that states it, not the whole passage


def cited_tasks(answer: str, sources: list[str], findings: dict[str, Finding]) -> set[int]:
    """The tasks the answer cites a finding of (``sources``: finding ids in the order of their [n])."""
    numbers = {int(n) for n in MARKER.findall(answer)}
    return {findings[sources[n - 1]].task_id for n in numbers if 1 <= n <= len(sources) and sources[n - 1] in findings}


def _aim(task: Todo, question: str) -> str:
    return f"{question}\n{task.task} {' '.join(task.subtasks)}"


def _quote(f: Finding, aim: str, language: str) -> str:
    """The finding's verified quote that answers ``aim`` best (a finding quotes every sentence of its excerpt
    the engine showed, the model's pick first), in one line."""
    best = max(f.verified_quotes, key=lambda q: score(aim, q.display or "", language, True))
    return " ".join((best.display or "").split())


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
            return faithful(f) and answers(task.task, f.info, answer_language)  # type: ignore[arg-type]
        return any(answers(task.task, q.display or "", language) for q in f.verified_quotes)
    return [f for f in kept if f.verified_quotes and (f.task_id == task.id or answered(f))]


def _best(task: Todo, question: str, candidates: list[Finding], language: str,
          answer_language: str | None = None) -> Finding | None:
    """The finding whose verified quote answers the task best (a figure counts where it asks for one), across
    languages the one whose faithful reading does; ``candidates`` hold verified quotes (``_candidates``)."""
    aim, wants = _aim(task, question), asks_for_figure(task.task)

    def fit(f: Finding) -> tuple[bool, bool, float]:
        if _by_reading(f, answer_language, language):
            return f.tier == 1, faithful(f), score(task.task, f.info, answer_language, wants)  # type: ignore[arg-type]
        return f.tier == 1, True, max(score(aim, q.display or "", language, True) for q in f.verified_quotes)
    return max(candidates, key=fit, default=None)


def _unstated(task: Todo, f: Finding, answer: str, language: str, question: str = "",
              answer_language: str | None = None) -> bool:
    """The finding's quote answers the task with a figure the answer does not state (seen: a quote of "400
    Millisievert" and "10 Millisievert"; the answer stated the 10). Across languages, figures compare as
    numbers ("six months", "sechs Monate"), those of the reading where it is faithful; the task's own
    finding, or one whose reading answers it, answers it."""
    said = MARKER.sub(" ", answer)
    if _by_reading(f, answer_language, language):
        given = stated_amounts(f.info) if faithful(f) and stated_amounts(f.info) else \
            stated_amounts(_quote(f, _aim(task, question), language))
        return bool(given - stated_amounts(said)) and (f.task_id == task.id or answers(task.task, f.info, answer_language))  # type: ignore[arg-type]
    quote = _quote(f, _aim(task, question), language)
    return bool(figures(quote) - figures(said)) and answers(task.task, quote, language)


def _line(task: Todo, f: Finding, n: int, language: str, question: str, doc_language: str) -> str:
    if f.info and faithful(f):  # the reading's line in the answer's language (documents in another language)
        said = " ".join(f.info.split())
    else:
        left, right = QUOTE_MARKS["de" if language == "de" else "en"]
        text = _quote(f, _aim(task, question), doc_language)
        said = left + (text if len(text) <= MAX_CHARS else text[:MAX_CHARS].rsplit(" ", 1)[0] + " …") + right
    title = " ".join(task.task.split()).rstrip("?")
    return f"- {title}: {said} [{n}]"


def completed(ctx: StepContext, answer: str, sources: list[str]) -> tuple[str, list[str]]:
    """The answer with a line for each task of the plan it leaves out but found evidence for; returns the
    answer and the source list (a finding not yet numbered gets the next number). An answer left empty
    (seen: a 1.5B model's only statement was a list's lead-in, "… hat die folgenden Pflichten:", and was
    left out) becomes each task's best verified quote, under a heading that says so."""
    state = ctx.state
    if not state.plan:
        return answer, sources
    findings = {f.id: f for f in state.later.research.findings}
    kept = kept_findings(ctx)
    covered = cited_tasks(answer, sources, findings)
    sources, lines = list(sources), []
    shown: set[str] = set()  # findings a line shows already
    cited = {sources[n - 1] for n in map(int, MARKER.findall(answer)) if 1 <= n <= len(sources)}
    for task in state.plan.items:
        if task.id == 0 and len(state.plan.items) > 1:
            continue  # the question itself is answered by whatever the answer says of its tasks
        # a part of the question is weighed by its own words: the whole question, which holds every part, made
        # the quote that shared most of its words the best for each part (seen: the question's first finding,
        # stating no period, was the best quote for the part that asks for one, laws-research-03)
        question = "" if state.plan.by_parts else state.question
        # a finding one line shows already gives way to the task's next best: each line its own evidence
        candidates = [f for f in _candidates(task, kept, state.doc_language, state.language) if f.id not in shown]
        best = _best(task, question, candidates, state.doc_language, state.language)
        if best is None:
            continue
        if (task.id in covered or best.id in cited) and \
                not _unstated(task, best, "\n".join([answer, *lines]), state.doc_language, question, state.language):
            continue
        shown.add(best.id)
        if best.id not in sources:
            sources.append(best.id)
        lines.append(_line(task, best, sources.index(best.id) + 1, state.language, question, state.doc_language))
    if not lines:
        return answer, sources
    labels = LABELS["de" if state.language == "de" else "en"]
    if not answer.strip():
        return f"**{labels['evidence_by_task']}:**\n" + "\n".join(lines), sources
    block = f"**{labels['more_evidence']}:**\n" + "\n".join(lines)
    head = f"\n\n**{labels['open_points']}:**"
    body, _, rest = answer.partition(head)
    return f"{body}\n\n{block}" + (head + rest if rest else ""), sources
