"""`python -m tui` runs the same command line as `pku-harness`."""

from tui.cli.main import main

if __name__ == "__main__":
    main()
