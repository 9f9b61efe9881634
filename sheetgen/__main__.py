"""The `sheetgen` program (and `python -m sheetgen`): the process starts,
then the command line runs, then the process ends (``process.py``)."""

from . import process


def main() -> None:
    process.start()  # before the commands are imported: a Ctrl-C now ends the run quietly
    from .cli import cli

    try:
        cli.main(prog_name="sheetgen")
    except SystemExit as done:
        process.end(done.code)
    process.end(0)


if __name__ == "__main__":
    main()
