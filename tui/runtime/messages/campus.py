"""The campus login's words: IAAA and each service's exchange, the stored credentials, the vault, the token."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # -- the campus login -------------------------------------------------------------------------------
    "campus_not_logged_in": {
        "zh": "还没有登录{title}：请先登录（设置 → 校园账号，或 pku-harness login {name}）",
        "en": "not logged in to {title} ({name}): log in first (Settings → Campus account, or pku-harness login "
        "{name})",
    },
    "campus_needs_otp": {
        "zh": "登录{title}需要手机令牌验证码：请重新登录并填写，或绑定令牌",
        "en": "logging in to {title} needs the mobile-token code: log in again and enter it, or bind the token",
    },
    "campus_relogin_failed": {
        "zh": "重新登录{title}失败：{error}",
        "en": "logging in to {title} again failed: {error}",
    },
}
