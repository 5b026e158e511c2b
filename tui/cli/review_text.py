"""The install review and the update review as plain text, for the command line (the app shows the same data
in its dialogs). Plugin text is untrusted: control characters are removed before printing."""

from __future__ import annotations

from tui.cli.output import pad
from tui.runtime.plugins import InstallReview, RemoteReview, ResolvedRef, UpdateReview
from widgets_render.safe_text import clean  # the one rule for untrusted text on a terminal


def install_text(r: InstallReview) -> str:
    """What the student reads before saying yes."""
    lines = [
        f"{clean(r.name)} ({r.plugin_id}) {r.version} — {clean(r.author)}",
        f"  {clean(r.description)}",
        f"  source: {clean(r.source)}",
        *([f"  ref:    {ref_text(r.ref)}"] if r.ref else []),
        "  official plugin" if r.official else "  COMMUNITY plugin: its write, money and public tools start at ask",
        "",
        "May reach:",
        f"  campus services: {', '.join(r.campus) or 'none'}",
        f"  websites:        {', '.join(r.network) or 'none'}",
        f"  app abilities:   {', '.join(r.abilities) or 'none'}",
        "",
        "Can do:",
    ]
    for t in r.tools:
        flags = " (only you can run it)" if t.user_only else ""
        lines.append(f"  [{pad(t.effect, 6)}] {t.name}: {clean(t.title)}{flags}")
        if t.summary:
            lines.append(f"           {clean(t.summary)}")
    if r.remote is not None:
        lines += ["", remote_text(r.remote)]
    if r.instructions.strip():
        told = r.instructions.strip().splitlines()
        lines += ["", "What the assistant is told:", *("  " + clean(line) for line in told)]
    return "\n".join(lines)


STATUS = {"new": "NEW", "changed": "CHANGED", "approved": "approved"}


def remote_text(r: RemoteReview, only_waiting: bool = False) -> str:
    """A remote plugin's server: URL, host, auth, and its tools with their descriptions (the server's words,
    cleaned) and effects; `only_waiting`: the new and changed tools only (a review after the install)."""
    lines = [
        "Remote MCP server (its tools' results are third-party text):",
        f"  url:  {clean(r.url)}",
        f"  host: {clean(r.host)}",
        f"  auth: {r.auth}",
    ]
    if not r.listed:
        lines.append(f"  could not list its tools: {clean(r.reason or r.state)}")
        lines.append("  (no tool is on until you review them on the plugin's page, once the server answers)")
        return "\n".join(lines)
    tools = r.waiting if only_waiting else r.tools
    lines.append(f"  tools ({len(tools)}; [the effect each will have]: a new one public, a changed one as before,")
    lines.append("   unless you choose with --effect NAME=EFFECT):")
    for t in tools:
        was = f", was {t.approved_effect}" if t.status == "changed" and t.approved_effect else ""
        hints = f"  (the server claims: {t.hints})" if t.hints else ""
        lines.append(f"  [{pad(t.effect, 6)}] {t.id} {STATUS[t.status]}{was}{hints}")
        for text in clean(t.description).splitlines()[:6] or [""]:
            lines.append(f"           {text[:300]}")
    if r.removed:
        lines.append(f"  no longer offered: {', '.join(r.removed)}")
    return "\n".join(lines)


def ref_text(ref: ResolvedRef) -> str:
    """`branch main at commit 0123…`: what the link's ref resolved to."""
    if ref.kind == "commit":
        return f"commit {ref.commit}, on the default branch"
    kind = "" if ref.kind == "ref" else f"{ref.kind} "
    return f"{kind}{clean(ref.name)} at commit {ref.commit}"


def update_text(r: UpdateReview) -> str:
    """What an update changes; the first line says whether it waits for approval."""
    head = "needs your approval (wider scope)" if r.needs_approval else "same scope"
    lines = [f"{clean(r.name)} ({r.plugin_id}) {r.old_version} → {r.new_version}: {head}"]
    for label, values in (
        ("campus services", r.added_campus),
        ("websites", r.added_network),
        ("app abilities", r.added_abilities),
    ):
        if values:
            lines.append(f"  + {label}: {', '.join(values)}")
    lines += [f"  effect: {c.tool}: {c.old or 'new tool'} → {c.new}" for c in r.stronger]
    lines += [f"  looser start: {c.effect} {c.old} → {c.new}" for c in r.loosened]
    lines += [
        f"  new tool {g.tool} is not {g.guard}, as {g.had} was" if g.had else f"  {g.tool} is no longer {g.guard}"
        for g in r.lost_guards
    ]
    if r.remote:
        lines.append(f"  remote MCP server: {r.remote[0] or 'none'} → {r.remote[1] or 'none'}")
    if r.removed_tools:
        lines.append(f"  removed tools: {', '.join(r.removed_tools)}")
    for t in r.texts:
        lines += [f"  {t.tool} {t.what}:", f"    - {clean(t.old)[:300]}", f"    + {clean(t.new)[:300]}"]
    if r.instructions:
        lines.append("  the assistant's instructions changed")
    return "\n".join(lines)
