"""The tables of `tui.runtime.message`, one module per area: `{key: {"zh": …, "en": …}}` with str.format
placeholders. Every key is said by the runtime as a `Message`; the English text is what `str()` of it reads."""
