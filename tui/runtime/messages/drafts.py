"""Plugin drafts: the folder rules (plugins/drafts.py), the assistant's draft tools (host_drafts.py, draft_run.py)
and `pku-harness plugins draft …` (cli/plugins_drafts.py)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # -- ids and files (plugins/drafts.py) ----------------------------------------------------------------------
    "draft_id_form": {
        "zh": "草稿名 {id!r} 不行：只能用小写字母、数字和 -，以字母或数字开头和结尾，最多 40 个字符",
        "en": "draft id {id!r} is refused: use lower-case letters, digits and '-', starting and ending with a "
        "letter or digit, at most 40 characters",
    },
    "draft_id_mcp": {
        "zh": "草稿名 {id!r} 不行：mcp- 开头的名字留给远程服务器",
        "en": "draft id {id!r} is refused: ids starting with 'mcp-' name remote servers",
    },
    "draft_id_reserved": {
        "zh": "草稿名 {id!r} 不行：这是 App 自带工具的名字",
        "en": "draft id {id!r} is refused: it is reserved for the app's own tools",
    },
    "draft_id_builtin": {
        "zh": "草稿名 {id!r} 不行：这是内置插件的名字，请换一个",
        "en": "draft id {id!r} is refused: a built-in plugin has it; choose another",
    },
    "draft_missing": {"zh": "没有名为 {draft} 的草稿", "en": "there is no draft {draft}"},
    "reference_no_section": {
        "zh": "插件语言参考没有 {section!r} 这一节；可选：{sections}",
        "en": "the plugin reference has no section {section!r}; sections: {sections}",
    },
    "draft_exists": {"zh": "草稿 {draft} 已经存在", "en": "draft {draft} exists already"},
    "draft_not_folder": {
        "zh": "草稿 {draft} 不是普通文件夹（可能是符号链接），不能使用",
        "en": "draft {draft} is not a plain folder (a symbolic link?), so it is not used",
    },
    "draft_bad_path": {"zh": "草稿 {draft}：路径 {path!r} 不行：{why}", "en": "draft {draft}: path {path!r}: {why}"},
    "draft_bad_kind": {
        "zh": "草稿 {draft}：{path} 不是插件文件夹里会有的文件类型；可以用：{kinds}",
        "en": "draft {draft}: {path} is not a kind of file a plugin folder holds; allowed: {kinds}",
    },
    "draft_symlink": {
        "zh": "草稿 {draft}：{path} 是（或经过）符号链接，不允许",
        "en": "draft {draft}: {path} is (or passes through) a symbolic link, which is not allowed",
    },
    "draft_not_file": {"zh": "草稿 {draft}：{path} 是文件夹，不是文件", "en": "draft {draft}: {path} is a folder"},
    "draft_file_missing": {"zh": "草稿 {draft} 里没有 {path}", "en": "draft {draft} has no file {path}"},
    "draft_file_unreadable": {"zh": "草稿 {draft}：{path}：{why}", "en": "draft {draft}: {path}: {why}"},
    "draft_not_utf8": {
        "zh": "草稿 {draft}：{path} 不是 UTF-8 文本",
        "en": "draft {draft}: {path} is not UTF-8 text",
    },
    "draft_too_big": {
        "zh": "草稿 {draft}：写入 {path} 后整个插件有 {total} 字节，超过 {kb} KB 的上限",
        "en": "draft {draft}: with {path} the plugin would have {total} bytes, over the {kb} KB limit",
    },
    "draft_diff_more": {"zh": "… 还有 {count} 行", "en": "… {count} more lines"},
    # -- the assistant's tools (host_drafts.py, draft_run.py) ---------------------------------------------------
    "draft_invalid": {
        "zh": "草稿 {draft} 有 {count} 个错误；先用 plugins__draftValidate 查看并修正",
        "en": "draft {draft} has {count} errors; see them with plugins__draftValidate and fix them first",
    },
    "draft_no_tests": {
        "zh": "草稿 {draft} 没有录制的测试（tests/*.yaml）",
        "en": "draft {draft} has no recorded tests (tests/*.yaml)",
    },
    "draft_run_no_tool": {"zh": "草稿 {draft} 没有工具 {tool!r}", "en": "draft {draft} has no tool {tool!r}"},
    "draft_run_not_read": {
        "zh": "草稿里只能试运行读取工具；{draft}.{tool} 的效果是「{effect}」，安装后才能运行",
        "en": "a draft runs only read tools; {draft}.{tool} has the effect {effect}: install it to run it",
    },
    "draft_run_campus": {
        "zh": "草稿不能访问校园服务（{service}）；安装插件并通过安装审查后才可以",
        "en": "a draft cannot use campus services ({service}); the draft must be installed (and its review "
        "accepted) for that",
    },
    "draft_run_campus_host": {
        "zh": "草稿不能访问校园网站 {host}；安装插件并通过安装审查后才可以",
        "en": "a draft cannot reach the campus site {host}; the draft must be installed for that",
    },
    "draft_run_ability_write": {
        "zh": "草稿不能使用会修改内容的能力 {ability}；安装后才可以",
        "en": "a draft cannot use the ability {ability}, which writes; install the draft for that",
    },
    "draft_run_ability_campus": {
        "zh": "草稿不能使用校园账号相关的能力 {ability}；安装后才可以",
        "en": "a draft cannot use the campus ability {ability}; the draft must be installed for that",
    },
    "draft_needs_person": {
        "zh": "安装草稿需要你在 App 前查看安装审查",
        "en": "installing a draft needs the student at the app to review it",
    },
    "draft_kept": {
        "zh": "草稿仍然保留；不再需要时可以删除",
        "en": "the draft is kept; discard it when it is no longer needed",
    },
    # -- the command line (cli/plugins_drafts.py) ---------------------------------------------------------------
    "drafts_none": {"zh": "还没有草稿；用 {command} 新建", "en": "no drafts yet; start one with {command}"},
    "draft_created": {"zh": "已新建草稿 {draft}：{folder}", "en": "created draft {draft}: {folder}"},
    "draft_discard_ask": {
        "zh": "删除草稿 {draft} 和它的全部文件？",
        "en": "Discard draft {draft} and all its files?",
    },
    "draft_not_discarded": {
        "zh": "草稿 {draft} 没有删除（加 --yes 可不经询问删除）",
        "en": "draft {draft} was not discarded (pass --yes to discard without asking)",
    },
    "draft_discarded": {"zh": "已删除草稿 {draft}", "en": "discarded draft {draft}"},
}
