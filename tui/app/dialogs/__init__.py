"""The app's dialogs: typed modal screens (ModalScreen[T]) that answer one question."""
