"""The `pku-harness` command line: thin commands over the same code the app uses."""
