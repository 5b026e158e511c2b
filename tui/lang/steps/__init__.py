"""The step interpreter: runs a plugin tool's steps under the run limits, through a `Host`."""
