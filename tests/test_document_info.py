"""What a PDF says of itself, as a viewer's document properties show it: the
grid and the language as its title, the club's header line (or sheetgen) as
its author, what it holds as its subject."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from sheetgen.sheet.style import load_labels


def info(path: Path) -> dict[str, str]:
    return {key: value for key, value in pdfium.PdfDocument(path).get_metadata_dict().items()
            if key in ("Title", "Author", "Subject")}


def test_sheets_name_their_grid_language_club_and_contents(run, tmp_path):
    assert run("render", "longo", "--lang", "fr", "--header", "Club de Lyon").exit_code == 0
    assert info(tmp_path / "out" / "longo-fr.pdf") == {
        "Title": "Qwixx Longo (Français)", "Author": "Club de Lyon", "Subject": load_labels("fr")("pack_title")}
    assert run("render", "classic").exit_code == 0
    assert info(tmp_path / "out" / "classic.pdf") == {
        "Title": "Qwixx (English)", "Author": "sheetgen", "Subject": "Qwixx score sheets to print"}


def test_a_rules_card_names_its_grid_language_and_contents(run, tmp_path):
    assert run("rules", "bonus", "--pdf", "--lang", "de").exit_code == 0
    words = load_labels("de")
    assert info(tmp_path / "out" / "bonus-de-rules.pdf") == {
        "Title": f"{words.fill('rules_heading', title='Qwixx Bonus')} (Deutsch)", "Author": "sheetgen",
        "Subject": words("pack_rules")}


def test_a_combined_batch_is_titled_after_its_manifest(run, tmp_path):
    (tmp_path / "evening.yaml").write_text("defaults: {header: 'Club de Lyon'}\njobs: [{grid: classic, sheets: 8}]\n")
    assert run("batch", "evening.yaml", "--combined", "-q").exit_code == 0
    assert info(tmp_path / "out" / "batch-evening" / "evening.pdf") == {
        "Title": "evening", "Author": "Club de Lyon", "Subject": "Qwixx score sheets to print"}
