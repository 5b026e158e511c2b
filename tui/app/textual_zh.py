"""Chinese for Textual's own key descriptions, keyed by Textual's English text.

Textual's widgets (Input, DataTable, Tabs, Select, …) describe their keys in English in their class-level
`BINDINGS`; the footer and the key panel (F1) show those descriptions. The app cannot give those widgets i18n
keys, so `tui.app.keys` looks each English description up here when the UI speaks Chinese. A description
missing here stays English: `tests/app/test_one_language.py` opens the key panel on every screen and fails on
English it finds, so a Textual upgrade that adds a key shows up there.
"""

from __future__ import annotations

TEXTUAL_ZH: dict[str, str] = {
    # the app and every screen
    "Quit": "退出",
    # the key panel shows it after "退出": say only what it adds
    "Quit the app and return to the command prompt.": "回到命令行",
    "palette": "命令面板",
    "Open the command palette": "打开命令面板",
    "Copy selected text": "复制选中的文字",
    "Focus Next": "下一个控件",
    "Focus Previous": "上一个控件",
    "Exit the command palette": "关闭命令面板",
    "Next command": "下一个命令",
    "Previous command": "上一个命令",
    # tabs
    "Previous tab": "上一个标签页",
    "Next tab": "下一个标签页",
    # buttons, switches, selects, lists
    "Press button": "按下按钮",
    "Toggle": "切换",
    "Toggle collapsible": "展开 / 收起",
    "Show menu": "展开选项",
    "Dismiss menu": "收起选项",
    "Select": "选择",
    "Next option": "下一个选项",
    "Previous option": "上一个选项",
    "First": "第一项",
    "Last": "最后一项",
    "Next page": "下一页",
    "Previous page": "上一页",
    # tables and scrolling
    "Up": "上",
    "Down": "下",
    "Top": "顶部",
    "Bottom": "底部",
    "Home": "开头",
    "End": "末尾",
    "Page Up": "上一页",
    "Page Down": "下一页",
    "Page up": "上一页",
    "Page down": "下一页",
    "Page Left": "向左翻页",
    "Page Right": "向右翻页",
    "Scroll Up": "向上滚动",
    "Scroll Down": "向下滚动",
    "Scroll Left": "向左滚动",
    "Scroll Right": "向右滚动",
    "Scroll Home": "滚到开头",
    "Scroll End": "滚到末尾",
    "Cursor up": "光标上移",
    "Cursor down": "光标下移",
    "Cursor left": "光标左移",
    "Cursor right": "光标右移",
    "Go to top": "到顶部",
    "Go to bottom": "到底部",
    # text input
    "Submit": "提交",
    "Move cursor left": "光标左移",
    "Move cursor right": "光标右移",
    "Move cursor left a word": "光标左移一个词",
    "Move cursor right a word": "光标右移一个词",
    "Move cursor left and select": "向左选择",
    "Move cursor right and select": "向右选择",
    "Move cursor left a word and select": "向左选择一个词",
    "Move cursor right a word and select": "向右选择一个词",
    "Move cursor right or accept the completion suggestion": "光标右移或接受补全",
    "Go to start": "到开头",
    "Go to end": "到末尾",
    "Select line start": "选择到行首",
    "Select line end": "选择到行尾",
    "Select all": "全选",
    "Select line": "选择整行",
    "Delete character left": "删除左边的字",
    "Delete character right": "删除右边的字",
    "Delete left to start of word": "删除到词首",
    "Delete right to start of word": "删除到下一个词",
    "Delete all to the left": "删除左边全部",
    "Delete all to the right": "删除右边全部",
    "Delete line": "删除整行",
    "Delete to line start": "删除到行首",
    "Delete to line end": "删除到行尾",
    "Cut selected text": "剪切选中的文字",
    "Paste text from the clipboard": "粘贴",
    "Copy": "复制",
    "Cut": "剪切",
    "Paste": "粘贴",
    "Undo": "撤销",
    "Redo": "重做",
    "Cursor left word select": "向左选择一个词",
    "Cursor right word select": "向右选择一个词",
    "Cursor left select": "向左选择",
    "Cursor right select": "向右选择",
    "Cursor up select": "向上选择",
    "Cursor down select": "向下选择",
    "Cursor line start": "到行首",
    "Cursor line end": "到行尾",
    "Cursor line start select": "选择到行首",
    "Cursor line end select": "选择到行尾",
    "Cursor word left": "光标左移一个词",
    "Cursor word right": "光标右移一个词",
    "Cursor page up": "上一页",
    "Cursor page down": "下一页",
}

#: Textual's English where the key panel would say a thing twice ("Quit  Quit the app and …"): what it adds.
TEXTUAL_EN: dict[str, str] = {
    "Quit the app and return to the command prompt.": "back to the command line",
}
