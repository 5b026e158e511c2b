"""Installing plugins (`tui.runtime.plugins`): the links the app accepts (links.py), fetching (fetch_http.py,
fetch.py), the official mark (official_mark.py) and the installer's refusals and update outcomes (installer.py)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # -- links (plugins/links.py) ---------------------------------------------------------------------------------
    "link_forms": {
        "zh": "GitHub 文件夹（https://github.com/OWNER/REPO/tree/REF/PATH）、"
        "GitHub 仓库（https://github.com/OWNER/REPO，PLUGIN.md 在根目录）、"
        "GitHub 文件（https://github.com/OWNER/REPO/blob/REF/PATH/PLUGIN.md）、"
        "任何以 /PLUGIN.md 结尾的 https:// 网址、"
        "pkuharness://plugin?src=<以上任意一种，经 URL 编码>，"
        "或本地插件文件夹",
        "en": "a GitHub folder (https://github.com/OWNER/REPO/tree/REF/PATH), "
        "a GitHub repository (https://github.com/OWNER/REPO, PLUGIN.md at its root), "
        "a GitHub file (https://github.com/OWNER/REPO/blob/REF/PATH/PLUGIN.md), "
        "any https:// URL ending in /PLUGIN.md, "
        "pkuharness://plugin?src=<one of those, URL-encoded>, "
        "or a local plugin folder",
    },
    "link_empty": {"zh": "链接是空的；可以填：{forms}", "en": "empty link; give {forms}"},
    "link_deep_form": {
        "zh": "pkuharness:// 链接必须是 pkuharness://plugin?src=…；可以填：{forms}",
        "en": "a pkuharness:// link must be pkuharness://plugin?src=…; accepted: {forms}",
    },
    "link_deep_src": {
        "zh": "pkuharness://plugin 链接必须有且只有一个 src=<链接>",
        "en": "a pkuharness://plugin link needs exactly one src=<link>",
    },
    "link_deep_nested": {
        "zh": "pkuharness:// 链接不能指向另一个 pkuharness:// 链接",
        "en": "a pkuharness:// link cannot point to another pkuharness:// link",
    },
    "link_deep_local": {
        "zh": "pkuharness:// 链接只能指向 https:// 链接，不能指向本地文件夹",
        "en": "a pkuharness:// link must point to an https:// link, not a local folder",
    },
    "link_not_folder": {
        "zh": "{link}：不是链接，也不是含有 PLUGIN.md 的文件夹；可以填：{forms}",
        "en": "{link}: not a link, and not a folder with a PLUGIN.md; accepted: {forms}",
    },
    "link_https_only": {"zh": "{url}：插件只能通过 https 获取", "en": "{url}: plugins are fetched over https only"},
    "link_bad_path": {
        "zh": "{link}：路径里不能有 '.'、'..'、反斜杠或控制字符",
        "en": "{link}: the path may not contain '.', '..', backslashes or control characters",
    },
    "link_scheme": {
        "zh": "{link}：不认识的链接协议 {scheme!r}；可以填：{forms}",
        "en": "{link}: unknown link scheme {scheme!r}; accepted: {forms}",
    },
    "link_credentials": {
        "zh": "{link}：链接里不能带用户名或密码",
        "en": "{link}: a link may not carry a user name or password",
    },
    "link_not_manifest": {
        "zh": "{link}：网址必须指向一个 PLUGIN.md 文件；可以填：{forms}",
        "en": "{link}: a URL must point at a PLUGIN.md file; accepted: {forms}",
    },
    "link_query": {
        "zh": "{link}：PLUGIN.md 的网址不能带查询参数或 # 片段",
        "en": "{link}: a PLUGIN.md URL may not carry a query or fragment",
    },
    "link_github_repo": {
        "zh": "{link}：GitHub 链接要写明所有者和仓库；可以填：{forms}",
        "en": "{link}: a GitHub link needs an owner and a repository; accepted: {forms}",
    },
    "link_github_file": {
        "zh": "{link}：GitHub 文件链接必须以 /PLUGIN.md 结尾",
        "en": "{link}: a GitHub file link must end in /PLUGIN.md",
    },
    "link_github_form": {
        "zh": "{link}：GitHub 链接必须是仓库、/tree/REF/PATH 文件夹或 /blob/…/PLUGIN.md 文件",
        "en": "{link}: a GitHub link must be a repository, a /tree/REF/PATH folder or a /blob/…/PLUGIN.md file",
    },
    # -- fetching (plugins/fetch_http.py) -------------------------------------------------------------------------
    "http_bad_url": {"zh": "{url!r} 不是有效的网址（{error}）", "en": "{url!r} is not a valid URL ({error})"},
    "http_https_only": {
        "zh": "{url}：插件只能通过 https 获取（只有本机上设置的 GitHub 镜像可以用 http）",
        "en": "{url}: plugins are fetched over https only (plain http only from the configured GitHub mirror "
        "on this machine)",
    },
    "http_credentials": {
        "zh": "{url}：插件网址里不能带用户名或密码",
        "en": "{url}: a plugin URL may not carry a user name or password",
    },
    "http_ip": {
        "zh": "{url}：写的是 IP 地址；插件只从域名获取",
        "en": "{url}: names an IP address; plugins are fetched from host names only",
    },
    "http_unresolved": {"zh": "无法解析 {host}（{error}）", "en": "cannot resolve {host} ({error})"},
    "http_refused": {"zh": "{what}：被拒绝：{error}", "en": "{what}: refused: {error}"},
    "http_bad_redirect": {
        "zh": "{what}：服务器重定向到了无效的网址（{error}）",
        "en": "{what}: the server redirected to an invalid URL ({error})",
    },
    "http_failed": {
        "zh": "{what}：获取失败（{kind}: {error}）",
        "en": "{what}: could not be fetched ({kind}: {error})",
    },
    "http_redirects": {"zh": "{what}：重定向超过 {count} 次", "en": "{what}: more than {count} redirects"},
    "http_compressed": {
        "zh": "{what}：服务器发来了 {encoding} 压缩的内容；插件只接受不压缩的内容",
        "en": "{what}: the server sent a {encoding}-compressed body; plugins are fetched uncompressed",
    },
    "http_over": {
        "zh": "{what}：插件的所有文件加起来超过了 {kb} KB 的上限",
        "en": "{what}: the plugin passes the {kb} KB limit for all its files together",
    },
    "http_length": {
        "zh": "{what}：服务器说有 {declared} 字节，实际发来 {sent} 字节",
        "en": "{what}: the server said {declared} bytes and sent {sent}",
    },
    "http_no_file": {"zh": "{base} 下没有 {path}", "en": "{path} does not exist at {base}"},
    "http_status": {"zh": "{path}：服务器返回 HTTP {status}", "en": "{path}: the server answered HTTP {status}"},
    # -- fetching from GitHub (plugins/fetch.py) ------------------------------------------------------------------
    "fetch_invalid_one": {"zh": "{link} 没有通过检查（1 个错误）", "en": "{link} does not validate (1 error)"},
    "fetch_invalid": {
        "zh": "{link} 没有通过检查（{count} 个错误）",
        "en": "{link} does not validate ({count} errors)",
    },
    "fetch_problems": {"zh": "{head}：\n{problems}", "en": "{head}:\n{problems}"},
    "fetch_no_repo": {"zh": "{link}：找不到仓库 {owner}/{repo}", "en": "{link}: repository {owner}/{repo} not found"},
    "fetch_no_commit": {"zh": "{link}：默认分支上没有提交", "en": "{link}: the default branch has no commit"},
    "fetch_no_ref": {
        "zh": "{link}：{owner}/{repo} 里没有链接所写的分支、标签或提交",
        "en": "{link}: no branch, tag or commit named in the link exists in {owner}/{repo}",
    },
    "fetch_not_commit": {
        "zh": "GitHub API 对 {ref} 的回答是 {answer!r}，不是提交 id",
        "en": "the GitHub API answered {answer!r} for ref {ref}, not a commit id",
    },
    "fetch_api_big": {
        "zh": "{what}：GitHub API 的回答超过了 {kb} KB",
        "en": "{what}: the GitHub API's answer is over {kb} KB",
    },
    "fetch_api_status": {
        "zh": "{what}：GitHub API 返回 HTTP {status}",
        "en": "{what}: the GitHub API answered HTTP {status}",
    },
    "fetch_what_repo": {"zh": "仓库", "en": "the repository"},
    "fetch_what_ref": {"zh": "引用 {ref}", "en": "ref {ref}"},
    "fetch_what_branch": {"zh": "分支 {name}", "en": "branch {name}"},
    "fetch_what_tag": {"zh": "标签 {name}", "en": "tag {name}"},
    "fetch_what_commit": {"zh": "提交 {commit}", "en": "commit {commit}"},
    # -- the official mark (plugins/official_mark.py) -------------------------------------------------------------
    "mark_check": {"zh": "对勾符号 {mark!r}", "en": "the check mark {mark!r}"},
    "mark_word_zh": {"zh": "「官方」二字", "en": "the word 官方"},
    "mark_word_en": {"zh": "单词 'official'", "en": "the word 'official'"},
    "mark_owner": {"zh": "名字 {owner!r}", "en": "the name {owner!r}"},
    "mark_app_name": {"zh": "App 自己的名字", "en": "the app's own name"},
    "mark_field": {"zh": "它的 {field} {value!r} 用了{what}", "en": "its {field} {value!r} uses {what}"},
    # -- the installer (plugins/installer.py) ---------------------------------------------------------------------
    "install_builtin_id": {
        "zh": "{id!r} 是 App 内置插件的 id；别的插件不能替换它（内置插件从自己的官方链接更新）",
        "en": "{id!r} is the id of a plugin built into the app; a plugin cannot replace it (a built-in plugin "
        "updates from its own official link)",
    },
    "install_already": {
        "zh": "{id!r} 已经安装过了（来自 {source}）；请用 `plugins update {id}` 更新，或者先删除它",
        "en": "{id!r} is already installed (from {source}); update it with `plugins update {id}` or remove it first",
    },
    "install_loaded": {
        "zh": "{id!r} 已经加载了（作者用 --with 给出的文件夹）",
        "en": "{id!r} is already loaded (an author's folder given with --with)",
    },
    "install_meanwhile": {"zh": "{id!r} 在这期间已经装上了", "en": "{id!r} was installed meanwhile"},
    "install_imitation": {
        "zh": "{link} 是社区插件，但{found}：只有 App 内置的插件和来自 {repo} 的插件才有官方标记，所以拒绝安装"
        "（作者可以给它起自己的 id、名称和作者名）",
        "en": "{link} is a community plugin, but {found}: only plugins built into the app or from {repo} carry the "
        "official mark, so this one is refused (its author can give it an id, a name and an author of their own)",
    },
    "install_no_longer_valid": {"zh": "{folder} 不再能通过检查", "en": "{folder} no longer validates"},
    "install_not_installed": {
        "zh": "{id!r} 既不是安装的插件，也不是内置插件",
        "en": "{id!r} is neither an installed plugin nor a built-in one",
    },
    "update_check_failed": {"zh": "{id}：检查更新失败：{error}", "en": "{id}: update check failed: {error}"},
    "update_other_plugin": {"zh": "{source} 现在是另一个插件 {other!r}", "en": "{source} now holds plugin {other!r}"},
    "update_not_official": {
        "zh": "{id}：{source} 不再指向官方仓库的分支、标签或默认分支上的提交；没有更新",
        "en": "{id}: {source} no longer resolves to a branch, a tag or a default-branch commit of the official "
        "repository; not updated",
    },
    "update_refused": {"zh": "{id}：没有更新：{error}", "en": "{id}: not updated: {error}"},
    "update_same": {"zh": "{id} {version} 已是最新", "en": "{id} {version} is up to date"},
    "update_declined": {"zh": "{id} {version}：你选择了保留旧版本", "en": "{id} {version}: you kept the old version"},
    "update_waiting": {"zh": "{id} {version} 在等你同意", "en": "{id} {version} waits for your approval"},
    "update_available": {"zh": "{id}：有新版本 {version}", "en": "{id}: {version} is available"},
    "update_paused": {"zh": "{id} {version} 需要你同意", "en": "{id} {version} needs your approval"},
    "update_applied": {"zh": "{id} 已更新到 {version}", "en": "{id} updated to {version}"},
    "update_none_waiting": {"zh": "{id} 没有等你同意的更新", "en": "{id} has no update waiting for approval"},
    "rollback_none": {"zh": "{id} 没有可以回退的旧版本", "en": "{id} has no previous version to roll back to"},
    "rollback_builtin_copy": {
        "zh": "{id} 运行的已经是 App 内置的副本 {version}，不能再回退",
        "en": "{id} already runs the copy built into the app ({version}); there is nothing older to roll back to",
    },
    "remove_builtin": {
        "zh": "{id} 是内置插件，不能卸载；可以回退到内置副本，或关闭它的自动更新",
        "en": "{id} is built into the app and cannot be removed; roll it back to the built-in copy, or turn its "
        "auto-update off",
    },
}
