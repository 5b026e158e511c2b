"""The app's dialogs: typed modal screens (`base.Dialog[T]`: a ModalScreen that answers once)."""
