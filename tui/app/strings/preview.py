"""The words of `pku-harness widget preview` (Chinese and English): its title, what it says about the plugin's
problems, the names it was asked for and the data it shows."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "preview_title": {"zh": "小组件预览 · {folder}", "en": "Widget preview · {folder}"},
    "no_problems": {"zh": "✓ 没有问题", "en": "✓ No problems"},
    "preview_counts": {"zh": "{errors} 个错误，{warnings} 个警告", "en": "Errors: {errors}, warnings: {warnings}"},
    "preview_error": {"zh": "错误", "en": "error"},
    "preview_warning": {"zh": "警告", "en": "warning"},
    "preview_note": {"zh": "提示", "en": "note"},
    "preview_render": {"zh": "渲染出错", "en": "render error"},
    "preview_render_counts": {
        "zh": "渲染时 {count} 处模板出错（校验查不出，见下）",
        "en": "Templates failed {count} times while rendering (validation cannot see these; listed below)",
    },
    "preview_more": {"zh": "…… 还有 {count} 个问题没有列出", "en": "… {count} more problems not listed"},
    # --- a name that is neither a widget nor a screen of the plugin ---
    "preview_no_such": {"zh": "没有叫 {name} 的小组件或页面", "en": "No widget or screen is named {name}"},
    "preview_choices": {"zh": "小组件：{widgets}\n页面：{screens}", "en": "Widgets: {widgets}\nScreens: {screens}"},
    "preview_none": {"zh": "（没有）", "en": "(none)"},
    "preview_nothing": {"zh": "这个插件没有小组件，也没有页面", "en": "This plugin has no widgets and no screens"},
    "preview_screen": {"zh": "{name} · 页面", "en": "{name} · screen"},
    # --- what is shown when a file does not load ---
    "preview_last_good": {
        "zh": "⚠ 这是上次成功的显示：现在读不出 {name}（问题见问题列表）",
        "en": "⚠ The last good render: {name} does not load now (see the problems)",
    },
    "preview_not_shown": {
        "zh": "{name} 现在读不出，还没有可显示的内容（问题见问题列表）",
        "en": "{name} does not load, and nothing loaded before (see the problems)",
    },
    # --- the data a widget is shown with ---
    "preview_data_kept": {
        "zh": "插件有错误，没有运行它的数据源：显示的是上次读到的数据",
        "en": "The plugin has errors, so its data sources were not run: this is the data read last",
    },
    "preview_data_none": {
        "zh": "插件有错误，没有运行它的数据源：小组件没有数据",
        "en": "The plugin has errors, so its data sources were not run: the widget has no data",
    },
    "preview_data_hint": {
        "zh": "改正错误后会重新读取；也可以用 --data 文件.json 给出数据",
        "en": "They run again once the errors are fixed; or give the data with --data FILE.json",
    },
    "preview_source_failed": {"zh": "数据源 {source} 读取失败", "en": "Data source {source} failed"},
    "preview_params_missing": {
        "zh": "页面 {screen} 需要参数 {params}，没有给出",
        "en": "Screen {screen} needs the params {params}, which were not given",
    },
    "preview_params_hint": {
        "zh": "用 --params '{example}' 给出（JSON，或 @文件.json）；读这些参数的数据源没有运行",
        "en": "Give them with --params '{example}' (JSON, or @FILE.json); the sources that read them were not run",
    },
    "preview_source_stale": {
        "zh": "数据源 {source} 刷新失败，显示的是上次的数据",
        "en": "Data source {source} failed to refresh: this is its last good value",
    },
    "preview_actions": {
        "zh": "预览不运行页面的操作（在 App 里打开页面才会运行）",
        "en": "The preview does not run a screen's actions (they run when the app opens the screen)",
    },
    "preview_internal": {
        "zh": "预览内部出错（pku-harness 的 bug，请报告）",
        "en": "Something failed inside the preview (a bug in pku-harness: please report it)",
    },
}
