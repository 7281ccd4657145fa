"""Every prompt of the engine, as data. Written in English; the answer language is a parameter.

A prompt is a system text and a user text with ``{placeholders}``; ``render`` fills them and returns
the messages. Keep the wording here, the logic in the phases.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.llm.types import Message

LANGUAGE_NAMES = {"de": "German", "en": "English"}

_ROLE = (
    "You are Rabbithole, a careful research assistant for analysts and regulatory reviewers. You work only "
    "from the user's knowledge base of documents (laws, ordinances, standards, reports, case files), which "
    "you see as numbered excerpts with document and page. Never invent facts, sections, documents or pages."
)


@dataclass(frozen=True)
class Prompt:
    name: str
    system: str
    user: str

    def render(self, **values: object) -> list[Message]:
        language = LANGUAGE_NAMES.get(str(values.get("language", "en")), str(values.get("language", "English")))
        filled = {**values, "language": language}
        return [
            Message(role="system", content=f"{_ROLE}\n\n{self.system.format(**filled)}"),
            Message(role="user", content=self.user.format(**filled)),
        ]


QUERIES_FIRST = Prompt(
    "clarify.queries",
    system=(
        "Write search queries for a hybrid (semantic and keyword) search of the knowledge base. A query is "
        "short (3 to 12 words), specific, and uses the words the documents themselves would use: legal terms, "
        "abbreviations, section numbers. Write them in {language} unless a document term is in another language."
    ),
    user=(
        "Research question: {question}\n\n"
        "Write exactly {n} different search queries: {angles}. Answer as JSON."
    ),
)

QUERIES_NEXT = Prompt(
    "clarify.queries",
    system=QUERIES_FIRST.system,
    user=(
        "Research question: {question}\n\n"
        "What the user has said so far:\n{answers}\n\n"
        "Open knowledge gaps:\n{gaps}\n\n"
        "Queries already used (do not repeat them):\n{used}\n\n"
        "Write exactly {n} new search queries: {angles}. Answer as JSON."
    ),
)

# What the queries of a round look for, in order; a round uses as many as it has queries.
FIRST_ANGLES = (
    "the first restates the question as a search query",
    "one broader query for the context around it",
    "one from another angle (obligations, exceptions, consequences, competent authority)",
    "one with the defined terms the documents are likely to use",
    "one for related rules elsewhere in the documents",
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
        "Analyse how well the excerpts cover the research question. Be concrete: a knowledge gap names a "
        "specific missing piece of information, never 'more details'. Coverage is your estimate from 0 to 1 of "
        "how much of what is needed to answer the question the excerpts already contain. Write all texts in "
        "{language}."
    ),
    user=(
        "Research question: {question}\n\n"
        "{answers}"
        "Excerpts from the knowledge base, most relevant first:\n{excerpts}\n\n"
        "Return key_concepts (5 to 7), entities (laws, sections, organisations, technical terms, dates), scope "
        "(what the question covers and what it does not), assumed_context (assumptions behind the question), "
        "knowledge_gaps (what is missing or unclear) and coverage. Answer as JSON."
    ),
)

QUESTIONS = Prompt(
    "clarify.questions",
    system=(
        "Ask the user follow-up questions that make the research question precise. Each question addresses one "
        "knowledge gap or one ambiguity of scope; it is short, concrete, answerable in a sentence, and offers "
        "options where that helps (for example: occupational or public exposure?). Do not ask what the user "
        "already answered. Write the questions in {language}."
    ),
    user=(
        "Research question: {question}\n\n"
        "{answers}"
        "Scope as understood so far: {scope}\n\n"
        "Knowledge gaps:\n{gaps}\n\n"
        "Ask {q_min} to {q_max} questions. Answer as JSON."
    ),
)

FINALIZE = Prompt(
    "clarify.finalize",
    system=(
        "Clarification is over. State precisely what the user wants, so that the research stays on course. "
        "Write scope, refinements, things to avoid and the summary in {language}; search queries in the "
        "language of the documents."
    ),
    user=(
        "Research question: {question}\n\n"
        "Clarification dialogue:\n{dialogue}\n\n"
        "Latest analysis - key concepts: {concepts}; entities: {entities}; scope: {scope}; open gaps: {gaps}\n\n"
        "Return research_queries (3 to 8 search queries that together cover the refined question), "
        "key_entities, scope (one or two sentences), refinements (each thing the user made clear, as a short "
        "statement), avoid (topics the user excluded, or that would drift away from the question), and summary "
        "(one paragraph stating the refined research question and its limits). Answer as JSON."
    ),
)

PLAN = Prompt(
    "plan.propose",
    system=(
        "Plan the research as a to-do list. A to-do is one research task that the knowledge base can answer: a "
        "concrete question or check, the context that says why it matters for the research question, and 1 to 4 "
        "subtasks. Do not repeat the research question itself: it is already task 0. If the excerpts show that "
        "the knowledge base cannot answer the question at all, say so honestly (answerable false, with the "
        "reason) instead of inventing tasks. Write in {language}."
    ),
    user=(
        "Research question: {question}\n\n"
        "Refined question: {summary}\n"
        "Scope: {scope}\n"
        "Avoid: {avoid}\n\n"
        "Excerpts from the knowledge base, most relevant first:\n{excerpts}\n\n"
        "Write {p_min} to {p_max} to-dos. Answer as JSON."
    ),
)

REPLAN = Prompt(
    "plan.replan",
    system=PLAN.system,
    user=(
        "Research question: {question}\n\n"
        "Refined question: {summary}\n"
        "Scope: {scope}\n"
        "Avoid: {avoid}\n\n"
        "Current plan (task 0 is the research question and stays):\n{plan}\n\n"
        "The user's feedback on the plan: {feedback}\n\n"
        "Excerpts from the knowledge base, most relevant first:\n{excerpts}\n\n"
        "Write the revised to-do list without task 0, {p_min} to {p_max} to-dos, following the feedback. "
        "Answer as JSON."
    ),
)

WRONG_LANGUAGE = "Your answer is written in {found} but must be in {language}. Write it again in {language}."
