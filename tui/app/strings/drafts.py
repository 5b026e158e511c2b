"""The app's own UI strings (Chinese and English): plugin drafts — the panel in 助手, the 草稿 section of 插件,
the line of a `draftWrite` call and the read-only file dialog."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    # --- the panel's one line (collapsed) and its heading ---
    "draft_head": {"zh": "草稿 {id}", "en": "Draft {id}"},
    "draft_ok": {"zh": "✓", "en": "✓"},
    "draft_problem_count": {"zh": "{count} 个问题", "en": "{count} problems"},
    "draft_checking": {"zh": "检查中…", "en": "checking…"},
    "draft_gone": {"zh": "草稿已不在了", "en": "the draft is gone"},
    "draft_not_yet": {"zh": "还没有文件", "en": "no files yet"},
    "draft_not_yet_body": {
        "zh": "助手要写下第一个文件（等你同意）。写好后这里显示文件、检查结果和小组件预览。",
        "en": "The assistant is about to write the first file (once you agree). Then its files, the check and a "
        "preview of its widgets show here.",
    },
    "draft_refused": {"zh": "不能用这个名字", "en": "this id cannot be used"},
    "draft_files": {"zh": "文件（回车打开）", "en": "Files (Enter opens)"},
    "draft_check": {"zh": "检查", "en": "Check"},
    "draft_preview": {"zh": "预览（录制数据）", "en": "Preview (recorded data)"},
    "draft_no_widgets": {"zh": "还没有小组件可预览", "en": "No widgets to preview yet"},
    "draft_preview_blocked": {"zh": "修好上面的错误后显示预览", "en": "Preview once the errors above are fixed"},
    "draft_install": {"zh": "安装", "en": "Install"},
    "draft_discard": {"zh": "丢弃", "en": "Discard"},
    "draft_collapse": {"zh": "收起", "en": "Collapse"},
    "draft_expand": {"zh": "展开", "en": "Expand"},
    # --- actions ---
    "draft_discard_question": {
        "zh": "丢弃草稿 {id}？它的文件夹和里面的 {files} 个文件都会删除，不能恢复。",
        "en": "Discard draft {id}? Its folder and the {files} files in it are deleted for good.",
    },
    "draft_discard_installed": {
        "zh": "插件 {id} 是从这个草稿装的：它照常可用，但以后不能再从草稿更新。",
        "en": "Plugin {id} was installed from this draft: it keeps working, but can no longer be updated from it.",
    },
    "draft_discarded": {"zh": "已丢弃草稿 {id}", "en": "Discarded draft {id}"},
    "draft_fix_first": {
        "zh": "草稿 {id} 还有 {count} 个错误，修正后才能安装（见草稿面板的「检查」）",
        "en": "Draft {id} has {count} errors; fix them before installing (see Check in the draft panel)",
    },
    "draft_continue_prompt": {"zh": "我们继续写插件草稿 {id}：", "en": "Let's continue the plugin draft {id}: "},
    "draft_action_failed": {"zh": "草稿操作失败：{error}", "en": "The draft action failed: {error}"},
    # --- the file dialog ---
    "draft_file_title": {"zh": "草稿 {id} · {path}（只读）", "en": "Draft {id} · {path} (read-only)"},
    # --- 插件 → 草稿 ---
    "drafts_heading": {
        "zh": "草稿（回车 继续写 · i 安装 · d 丢弃）",
        "en": "Drafts (Enter continue · i install · d discard)",
    },
    "drafts_none": {
        "zh": "还没有草稿：在「助手」里请 AI 帮你写一个插件，或运行 pku-harness plugins draft new ID",
        "en": "No drafts yet: ask the assistant to write a plugin with you, or run pku-harness plugins draft new ID",
    },
    "drafts_id": {"zh": "草稿", "en": "Draft"},
    "drafts_name": {"zh": "名称", "en": "Name"},
    "drafts_files": {"zh": "文件", "en": "Files"},
    "drafts_size": {"zh": "大小", "en": "Size"},
    "drafts_modified": {"zh": "修改时间", "en": "Modified"},
    "drafts_state": {"zh": "检查", "en": "Check"},
    "key_install": {"zh": "安装", "en": "install"},
    "key_discard": {"zh": "丢弃", "en": "discard"},
    "key_recheck": {"zh": "重新检查", "en": "check again"},
    # --- the chat's line of a draftWrite call ---
    "draft_write_line": {"zh": "写入 {path}（+{added} −{removed}）", "en": "Wrote {path} (+{added} −{removed})"},
    "draft_write_running": {"zh": "写入 {path}", "en": "Writing {path}"},
}
