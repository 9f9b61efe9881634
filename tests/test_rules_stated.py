"""Each rule a card must state, by the grid feature that calls for it, in
every language: the composed rules of every built-in grid and of two custom
grids say it where the grid has the feature (and a variant's differences in a
section of their own), found by the words each language says it with.

The phrases are the rules review's list (turn order, announcing the white
sum, one cell per action, the closer's row shut at once, the power chain,
"open" rows, the lucky cross right of the last cross, the bonus bar's end
cases); '.' stands for an apostrophe, whatever its typography."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from sheetgen.grid.load import builtin_dir, builtin_names, grid_from_data, load_grid
from sheetgen.grid.model import Effect, Grid
from sheetgen.grid.yamlio import read_yaml
from sheetgen.play.rules import compose_rules
from sheetgen.sheet.style import languages, load_labels

EVERY: Callable[[Grid], bool] = lambda grid: True  # noqa: E731
# rule: (the grids that must state it, the words that state it in each language)
RULES: dict[str, tuple[Callable[[Grid], bool], dict[str, str]]] = {
    "2 to 5 players": (EVERY, {"en": r"2 to 5 players", "de": r"2 bis 5 Spieler", "fr": r"De 2 à 5 joueurs",
                               "it": r"Da 2 a 5 giocatori", "nl": r"2 tot 5 spelers"}),
    "the turn passes to the left": (EVERY, {"en": r"passes to the left", "de": r"reihum nach links",
                                            "fr": r"joueur de gauche", "it": r"giocatore a sinistra",
                                            "nl": r"beurt naar links"}),
    "the white sum announced aloud": (EVERY, {"en": r"announce .* aloud", "de": r"laut an", "fr": r"à voix haute",
                                              "it": r"ad alta voce", "nl": r"noem hardop"}),
    "a close called out": (EVERY, {"en": r"calls it out", "de": r"Reihe abschließt, sagt es laut an",
                                   "fr": r"l.annonce", "it": r"lo annuncia", "nl": r"afsluit, zegt dat hardop"}),
    "one cell an action, triggers on top": (EVERY, {
        "en": r"at most one cell; what that cell triggers comes on top",
        "de": r"höchstens ein Feld an; was dieses Feld auslöst, kommt noch dazu",
        "fr": r"au plus une case\s; ce que cette case déclenche vient en plus",
        "it": r"al massimo una casella; ciò che quella casella fa scattare si aggiunge",
        "nl": r"hoogstens één vakje aan; wat dat vakje in gang zet, komt erbij"}),
    "the closer's row shut for them at once": (EVERY, {
        "en": r"a row that you close is shut for you at once", "de": r"die du abschließt, ist für dich sofort abgeschlossen",
        "fr": r"que vous clôturez est clôturée pour vous aussitôt", "it": r"che chiudi tu è chiusa per te subito",
        "nl": r"die jij afsluit, is voor jou meteen afgesloten"}),
    "mistake: only the active player takes a penalty": (EVERY, {
        "en": r"Only the active player takes a penalty", "de": r"Nur der aktive Spieler bekommt einen Fehlwurf",
        "fr": r"Seul le joueur actif prend un coup manqué", "it": r"Solo il giocatore attivo segna un tiro a vuoto",
        "nl": r"Alleen de actieve speler krijgt een misworp"}),
    "mistake: the lock is a cross": (EVERY, {"en": r"The lock counts as a cross", "de": r"Das Schloss zählt .* als Kreuz",
                                             "fr": r"Le cadenas compte comme une croix",
                                             "it": r"Il lucchetto conta come una crocetta",
                                             "nl": r"Het slot telt als een kruisje"}),
    "mistake: a lucky number is a white sum only": (lambda grid: grid.lucky is not None, {
        "en": r"never with a coloured die", "de": r"nie mit einem Farbwürfel", "fr": r"jamais avec un dé de couleur",
        "it": r"mai con un dado colorato", "nl": r"nooit met een gekleurde dobbelsteen"}),
    "skipped cells struck": (EVERY, {"en": r"strike it through", "de": r"streich es durch", "fr": r"barrez-la",
                                     "it": r"barrala", "nl": r"streep het door"}),
    "a power's crosses chain": (lambda grid: bool(grid.powers), {
        "en": r"complete another symbol, whose power then acts too, or close a row",
        "de": r"weiteres Symbol vervollständigen, dessen Kraft dann ebenfalls wirkt, oder eine Reihe abschließen",
        "fr": r"compléter un autre symbole, dont le pouvoir agit alors aussi, ou clôturer une rangée",
        "it": r"completare un altro simbolo, il cui potere allora agisce anch.esso, o chiudere una riga",
        "nl": r"ander symbool voltooien, waarvan de kracht dan ook werkt, of een rij afsluiten"}),
    "the row with the fewest crosses is an open one": (  # the circle's, the lucky cross's
        lambda grid: grid.lucky is not None or any(p.effect is Effect.EXTRA_CROSSES for p in grid.powers),
        {"en": r"your open row with the fewest", "de": r"deiner offenen Reihe mit den wenigsten",
         "fr": r"votre rangée ouverte qui a le moins", "it": r"tua riga aperta con meno",
         "nl": r"je open rij met de minste"}),
    "the lucky cross right of the last cross": (lambda grid: grid.lucky is not None, {
        "en": r"the first free cell right of your last cross in that row, or its first cell if the row is empty",
        "de": r"das erste freie Feld rechts von deinem letzten Kreuz in dieser Reihe, bei einer leeren Reihe",
        "fr": r"la première case libre à droite de votre dernière croix dans cette rangée, ou sa première case",
        "it": r"la prima casella libera a destra della tua ultima crocetta in quella riga, o la sua prima casella",
        "nl": r"het eerste vrije vakje rechts van je laatste kruisje in die rij, of het eerste vakje"}),
    "the bonus in an empty row and with no free bar box": (lambda grid: bool(grid.bonus_bar), {
        "en": r"its first cell if the row is empty.*no box of the bar is free",
        "de": r"das erste Feld, wenn die Reihe leer ist.*kein Kästchen der Leiste mehr frei",
        "fr": r"sa première case si la rangée est vide.*aucune case de la barre n.est libre",
        "it": r"la sua prima casella se la riga è vuota.*non resta nessuna casella libera",
        "nl": r"het eerste vakje als de rij leeg is.*geen balkvakje meer vrij"}),
}


def custom_grids() -> dict[str, Grid]:
    """Two grids of no shipped file: classic rows with a threshold of 6 and a lucky number;
    three bonus rows with six-point penalties."""
    first = read_yaml(builtin_dir() / "classic.yaml") | {"name": "lucky6", "close_after": 6,
                                                         "lucky": {"count": 1, "from": 2, "to": 12}}
    second = read_yaml(builtin_dir() / "bonus.yaml")
    second |= {"name": "bonus3", "penalties": {"boxes": 3, "points": 6}}
    return {"lucky6": grid_from_data(first, "lucky6.yaml"), "bonus3": grid_from_data(second, "bonus3.yaml")}


GRIDS = {name: load_grid(name) for name in builtin_names()} | custom_grids()


def text(grid: Grid, lang: str) -> str:
    rules = compose_rules(grid, load_labels(lang))
    return "\n".join(p for s in rules.sections for p in (*s.paragraphs, *s.items))


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("rule", RULES)
def test_every_card_states_the_rules_its_features_call_for(rule, lang):
    needed, words = RULES[rule]
    stated = {name: re.search(words[lang], text(grid, lang), re.S) is not None for name, grid in GRIDS.items()}
    assert stated == {name: needed(grid) for name, grid in GRIDS.items()}


@pytest.mark.parametrize("lang", languages())
def test_a_variants_differences_stand_in_a_section_of_their_own(lang):
    labels = load_labels(lang)
    for name, grid in GRIDS.items():
        sections = {s.title: s for s in compose_rules(grid, labels).sections}
        variant = sections.get(labels("rules_title_variant"))
        numbers = [int(n) for n in re.findall(r"\d+", " ".join(variant.paragraphs))] if variant else []
        wanted = []
        if grid.close_after != 5:
            wanted += [grid.close_after, 5]
        if grid.dice_faces != 6:
            wanted += [grid.dice_faces, 6, 2, 2 * grid.dice_faces]
        if (grid.penalty_boxes, grid.penalty_points) != (4, 5):
            wanted += [grid.penalty_boxes, grid.penalty_points, 4, 5]
        assert numbers == wanted, (name, numbers)
        assert list(sections).index(variant.title) == 1 if variant else True  # right after what you need


def test_the_custom_grids_have_differences_to_show():
    assert GRIDS["lucky6"].close_after == 6 and GRIDS["bonus3"].penalty_points == 6
