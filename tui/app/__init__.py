"""The Textual app (issue 6). Only this package and the CLI may import Textual."""
