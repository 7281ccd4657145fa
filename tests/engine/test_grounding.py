"""A batch reading names the excerpt it rests on by label; a small model mixes the labels up. Seen with
Qwen2.5-Coder-1.5B on laws-dev-02: three excerpts, the answer on the third (StrlSchG p. 52, § 77), and two
readings of it filed under S1 and S2, quoting their sentences — the gold page got no finding at all."""

from __future__ import annotations

from desktop.engine.sentences import numbered
from desktop.engine.support import regrounded

S1 = ("(7) Beruflich exponierte Person: Eine Person, die eine berufliche Exposition aus Tätigkeiten erhalten kann, "
      "die 1. eine effektive Dosis von 1 Millisievert im Kalenderjahr überschreitet, 2. eine Organ-Äquivalentdosis "
      "für die Augenlinse von 15 Millisievert im Kalenderjahr überschreitet. Berufliche Expositionen aus "
      "Notfallexpositionssituationen werden dabei nicht berücksichtigt.")
S2 = ("1. Beruflich exponierte Personen der Kategorie A: Personen, deren Einsatz als fliegendes Personal zu einer "
      "effektiven Dosis durch kosmische Strahlung von mehr als 6 Millisievert im Kalenderjahr führen kann;")
S3 = ("§ 77 Grenzwert für die Berufslebensdosis\nDer Grenzwert für die Summe der in allen Kalenderjahren ermittelten "
      "effektiven Dosen beruflich exponierter Personen beträgt 400 Millisievert. Die zuständige Behörde kann im "
      "Benehmen mit einem ermächtigten Arzt eine zusätzliche berufliche Exposition zulassen, wenn diese nicht mehr "
      "als 10 Millisievert effektive Dosis im Kalenderjahr beträgt. Die Einwilligung ist schriftlich zu erteilen.")


def _sentences(text: str) -> dict[int, str]:
    _, units = numbered(text)
    return {u.number: text[u.start:u.end] for u in units}


BATCH = {"S1": _sentences(S1), "S2": _sentences(S2), "S3": _sentences(S3)}


def test_a_reading_under_the_wrong_label_moves_to_the_excerpt_that_says_it() -> None:
    info = "Die effektive Dosis beruflich exponierter Personen darf über alle Kalenderjahre höchstens 400 Millisievert betragen."
    label, quote = regrounded(info, "S1", [1, 2, 3], BATCH, "de")
    assert label == "S3"
    assert [BATCH["S3"][n] for n in quote][0].startswith("Der Grenzwert für die Summe")


def test_a_reading_its_own_excerpt_supports_stays() -> None:
    info = "Eine Person ist beruflich exponiert, wenn ihre effektive Dosis 1 Millisievert im Kalenderjahr überschreiten kann."
    assert regrounded(info, "S1", [1], BATCH, "de") == ("S1", [1])


def test_a_reading_no_excerpt_supports_keeps_its_label() -> None:
    assert regrounded("Die Aufbewahrungsfrist beträgt 30 Jahre.", "S2", [1], BATCH, "de") == ("S2", [1])
    assert regrounded("Die Dosis beträgt 400 Millisievert.", "S9", [1], BATCH, "de")[0] == "S3"  # a made-up label
