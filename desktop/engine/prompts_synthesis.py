"""The prompts of phase 4 (``steps/synthesis.py``, ``steps/quality.py``), as data, like ``prompts.py``: the answer
in its full shape or, under a binding time budget, its brief one; the reviewer's rating; the feedback texts."""

from __future__ import annotations

from desktop.engine.prompts import Prompt

# What every answer's statements follow, whatever the shape asked for.
_STATEMENT_RULES = (
    "- Each statement is one or two sentences in {language} and lists in sources the numbers of the sources "
    "that say it, for example [2] or [2, 5]: only those that say it. Every statement needs at least one "
    "source. Do not write source markers or a list of sources into the text: Rabbithole adds them.\n"
    "- Keep numbers, units, dates and section references exactly as the sources give them. Put words in "
    "quotation marks only when they are a verified quote given with that source.\n"
)

_SYNTHESIS_USER = (
    "Research question: {question}\n"
    "Refined question: {summary}\n"
    "Scope: {scope}\n"
    "Avoid: {avoid}\n\n"
    "Research tasks and the sources found for them:\n{tasks}\n\n"
    "Sources:\n{sources}\n\n"
    "{feedback}"
    "Answer as JSON, its texts in {language}."
)

SYNTHESIS = Prompt(
    "synthesis.write",
    system=(
        "Write the answer to the research question in {language}, as statements built only from the numbered "
        "sources.\n"
        "- answer: 1 to 3 statements that answer the question directly.\n"
        "- details: at most 8 further statements the question needs: conditions, exceptions, deadlines, who is "
        "responsible, definitions. Each research task that lists sources gets at least one statement from them. "
        "No statement twice.\n"
        + _STATEMENT_RULES +
        "- When the question asks for a figure (a period, deadline, limit, amount, count or date), the first "
        "statement gives it with its unit, as a verified quote states it.\n"
        "- open: at most 3 parts of the question the sources do not answer, in {language}; empty when none.\n"
        "Primary sources weigh most; secondary and tertiary ones support."
    ),
    user=_SYNTHESIS_USER,
    max_tokens=900,
)

# Under a binding time budget: one statement per task and nothing else. Seen on a CPU (1.5B model): the full
# shape's details repeated its answer word for word and its open points repeated both, 632 answer tokens
# (90 s) of which a third was new; the engine adds a task's unstated figure itself (coverage.py).
SYNTHESIS_BRIEF = Prompt(
    "synthesis.write",
    system=(
        "Write the answer to the research question in {language}, as statements built only from the numbered "
        "sources.\n"
        "- statements: at most {n}, one for each research task that lists sources, in the order of the tasks: "
        "what its sources say for it, with the figure and its unit where the task asks for one. No statement "
        "twice.\n"
        + _STATEMENT_RULES +
        "Primary sources weigh most."
    ),
    user=_SYNTHESIS_USER,
    max_tokens=450,
)

QUALITY = Prompt(
    "synthesis.quality",
    system=(
        "Review an answer to a research question as a strict reviewer. Score each dimension from 0 to 100 by "
        "these anchors:\n"
        "- grounding: 100 every statement is backed by the source it cites; 70 one statement goes beyond its "
        "source; 40 several do; 0 the answer is not based on the sources.\n"
        "- completeness: 100 it answers every part of the refined question and the tasks; 70 a minor part is "
        "missing; 40 a main part is missing; 0 it does not answer the question.\n"
        "- structure: 100 direct answer first, ordered, no repetition; 70 minor repetition or disorder; 40 hard "
        "to follow; 0 incoherent.\n"
        "- citations: 100 every marker points to a source that says what is claimed; 70 one marker is wrong; "
        "40 several are; 0 markers are missing or wrong.\n"
        "notes: the concrete problems to fix, in {language}, at most three sentences; empty when there is "
        "nothing to fix."
    ),
    user=(
        "Research question: {question}\n"
        "Refined question: {summary}\n"
        "Research tasks:\n{tasks}\n\n"
        "The answer:\n{answer}\n\n"
        "The cited sources:\n{sources}\n\n"
        "Answer as JSON, its texts in {language}."
    ),
    max_tokens=300,
)

REVISION_REQUEST = ("A reviewer found these problems in your previous answer:\n{notes}\n\nYour previous answer:\n"
                    "{answer}\n\nWrite the revised answer, fixing these problems and keeping what was right.\n\n")
NO_CITED_STATEMENT = "No statement names a source number between 1 and {n}. Give every statement its sources."
NOTHING_STOOD = "no statement of the answer could stand"  # the engine's own words, for its warning and the report
NOT_SUPPORTED = ("No statement is said by the sources it names. Build each statement from its sources, with their "
                 "words and numbers, and name only those sources.")
