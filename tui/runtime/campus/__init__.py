"""The campus session: IAAA login, per-service signing, re-login, treehole's second factor, the mobile token.

Plugins name a service (`campus: treehole`) and a path; this package attaches the login state. Passwords,
cookies and tokens live in the vault (keyring), are registered with the scrubber, and never reach a plugin.
"""
