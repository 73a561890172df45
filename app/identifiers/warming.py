"""Loading everything pseudonymisation needs before the first message, not while the user waits for it.

The detector's models and word lists load in ``IdentifierDetector.warm``. But much more loads the first
time a path is taken: the towns' countries and the given names' genders that pick a stand-in, Faker's
locales, and lists that some rules read on first use. The first 1,000-word note paid about 0.35 s more
than every later one (docs/PRIVACY.md, "Cost"). Reading a short note of each language through a throwaway
conversation takes those paths, whatever a later change adds to them, so the app's warm-up covers them.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.identifiers.detect import IdentifierDetector, default_detector
from app.identifiers.language import Language
from app.identifiers.pseudonyms import Pseudonymiser

# Invented notes that carry most kinds of identifier: no one's, and in no evaluation set.
WARMING_NOTES = {
    Language.ENGLISH: (
        "Discharge summary, Riverside General Hospital, Ward 7\n"
        "Patient: Mr Tobias Wren (DOB 14/02/1961, MRN 40418822), aged 63, of 12 Larch Crescent, "
        "Kettering NN15 6XQ; tel. 07700 900418, tobias.wren@example.com.\n"
        "Seen by Dr Amara Okafor on 3 March 2025 with chest pain; his daughter Jo drove him in from Oundle.\n"
        "Plan: aspirin 75 mg daily, review in clinic on Friday 21st. Insurer: Halberd Mutual Ltd, policy "
        "HM-2231-77. Card ending 4242; NHS number 943 476 5919."
    ),
    Language.SPANISH: (
        "Informe de alta, Hospital Universitario de Getafe, planta 4\n"
        "Paciente: D. Rodrigo Salcedo Ibarra (DNI 12345678Z, NHC 558102), de 71 años, con domicilio en "
        "C/ Mayor 14, 2º A, 28013 Madrid; tel. 611 222 333, rodrigo.salcedo@example.es.\n"
        "Atendido por la Dra. Lucía Ferrán el 12 de abril de 2025 por disnea; le acompañó su hija Marta "
        "desde Alcorcón.\nPlan: revisión el lunes 5 de mayo en consultas externas. Aseguradora: Mutua "
        "Castellana S.A., póliza MC-99812."
    ),
}


def warm_pseudonymisation(
    languages: Iterable[Language] = (Language.ENGLISH,), detector: IdentifierDetector | None = None
) -> None:
    """Load what detecting and replacing identifiers in ``languages`` needs now (seconds, once per process)."""
    detector = detector or default_detector()
    languages = tuple(languages)
    detector.warm(languages)
    for language in languages:
        Pseudonymiser(detector=detector).pseudonymise(WARMING_NOTES[language])
