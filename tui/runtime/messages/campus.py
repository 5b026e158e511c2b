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
    "campus_needs_sms": {
        "zh": "登录{title}需要短信验证码：请在登录界面发送并填写",
        "en": "logging in to {title} needs an SMS code: send it and enter it on the login screen",
    },
    "campus_no_sms": {
        "zh": "{service}不经过 IAAA，没有短信验证码",
        "en": "{service} does not log in through IAAA: no SMS code",
    },
    "campus_needs_captcha": {
        "zh": "IAAA 要求填写图片验证码才能登录{title}：请先在浏览器里登录一次 IAAA，再回来登录",
        "en": "IAAA wants a picture code before logging in to {title}: log in to IAAA once in a browser, then here",
    },
    "campus_relogin_failed": {
        "zh": "重新登录{title}失败：{error}",
        "en": "logging in to {title} again failed: {error}",
    },
    "campus_auto_login_paused": {
        "zh": "{title}：上次自动登录被 IAAA 拒绝了，{seconds} 秒内不再自动尝试（以免账号被锁）；现在就可以手动登录"
        "（设置 → 校园账号，或 pku-harness login）",
        "en": "{title}: IAAA refused the last automatic login, so none is tried for {seconds} s (the account could be "
        "locked); log in by hand now (Settings → Campus account, or pku-harness login)",
    },
    "campus_auto_login_stopped": {
        "zh": "IAAA 连续 {failures} 次拒绝了自动登录（{reason}），为免账号被锁，已停止自动登录{title}：请手动登录"
        "（设置 → 校园账号，或 pku-harness login）",
        "en": "IAAA refused {failures} automatic logins in a row ({reason}); so that the account is not locked, "
        "automatic logins to {title} stopped: log in by hand (Settings → Campus account, or pku-harness login)",
    },
    "campus_no_login": {
        "zh": "没有保存{service}的校园账号：请先登录",
        "en": "no stored campus login for {service}: please log in",
    },
    # -- IAAA (iaaa.py) ---------------------------------------------------------------------------------------
    "iaaa_said": {"zh": "IAAA：{message}", "en": "IAAA: {message}"},
    "iaaa_activation": {
        "zh": "IAAA：{message}（这个账号要先在 iaaa.pku.edu.cn 激活）",
        "en": "IAAA: {message} (the account needs activating on iaaa.pku.edu.cn)",
    },
    "iaaa_key_unreadable": {"zh": "IAAA 发来的公钥无法读取", "en": "IAAA sent a public key the app cannot read"},
    "iaaa_key_not_rsa": {"zh": "IAAA 发来的公钥不是 RSA 公钥", "en": "IAAA sent a public key that is not RSA"},
    "iaaa_no_key": {"zh": "IAAA 没有给出公钥", "en": "IAAA did not hand out its public key"},
    "iaaa_http": {
        "zh": "IAAA 对{what}返回了 HTTP {status}；请稍后再试",
        "en": "IAAA answered HTTP {status} to {what}; try again later",
    },
    "iaaa_not_json": {
        "zh": "IAAA 对{what}的回答不是 JSON",
        "en": "IAAA answered {what} with something that is not JSON",
    },
    "iaaa_unexpected": {"zh": "IAAA 对{what}的回答不对劲", "en": "IAAA answered {what} with something unexpected"},
    "iaaa_what_key": {"zh": "获取公钥的请求", "en": "the public-key request"},
    "iaaa_what_login": {"zh": "登录请求", "en": "the login"},
    "iaaa_what_qr": {"zh": "二维码登录的查询", "en": "the QR poll"},
    "iaaa_what_bind_login": {"zh": "绑定令牌前的登录", "en": "the bind login"},
    "iaaa_what_sms": {"zh": "发送短信验证码的请求", "en": "the SMS request"},
    "iaaa_what_sms_check": {"zh": "短信验证码的核对", "en": "the SMS check"},
    "iaaa_what_secret": {"zh": "生成令牌密钥的请求", "en": "key"},
    "iaaa_what_binding": {"zh": "绑定请求", "en": "the binding"},
    "iaaa_no_qr": {"zh": "IAAA 没有发来二维码图片", "en": "IAAA did not send a QR code image"},
    "iaaa_qr_expired": {"zh": "二维码过期了，请换一个新的", "en": "the QR code expired; show a new one"},
    "qr_not_drawn": {"zh": "（这里画不出二维码：{error}）", "en": "(the QR code cannot be drawn here: {error})"},
    "net_timeout": {"zh": "{who} 没有及时回应", "en": "{who} did not answer in time"},
    "net_unreachable": {"zh": "连不上 {who}（{kind}）", "en": "cannot reach {who} ({kind})"},
    # -- each service's exchange (exchanges.py) ---------------------------------------------------------------
    "campus_off_campus": {
        "zh": "登录过程跳到了校外（{host}），已在那里停止",
        "en": "the login chain pointed off campus ({host}); stopped there",
    },
    "campus_treehole_refused": {
        "zh": "树洞没有接受这次登录（HTTP {status}）",
        "en": "treehole did not accept the login (HTTP {status})",
    },
    "campus_card_no_token": {
        "zh": "门户登录后，校园卡服务没有给出令牌",
        "en": "the card service did not hand out its token after the portal login",
    },
    "campus_refused": {
        "zh": "{service}没有接受这次登录（HTTP {status}）",
        "en": "{service} did not accept the login (HTTP {status})",
    },
    "campus_elective_token_invalid": {
        "zh": "选课网说这次登录的凭据已失效（可能在别处登录过）：请再登录一次",
        "en": "course election says the login token is no longer valid (perhaps a login elsewhere): log in again",
    },
    "campus_cwfw_refused": {"zh": "财务门户没有接受这次登录", "en": "the finance portal did not accept the login"},
    "campus_cwfw_disabled": {
        "zh": "财务门户拒绝了这次登录（账号可能已被停用）",
        "en": "the finance portal refused the login (the account may be disabled)",
    },
    "campus_cwfw_no_sub": {
        "zh": "财务门户没有提供它的子系统（WF_CWBS）",
        "en": "the finance portal did not offer its subsystem (WF_CWBS)",
    },
    "campus_cwfw_timeout": {"zh": "登录时财务子系统超时了", "en": "the finance subsystem timed out during login"},
    "its_said": {"zh": "its：{message}", "en": "its: {message}"},
    "its_http": {"zh": "its 返回了 HTTP {status}", "en": "its answered HTTP {status}"},
    # -- the vault (vault.py) and the mobile token (totp.py) --------------------------------------------------
    "vault_keyring_read": {"zh": "系统钥匙串拒绝读取（{error}）", "en": "the keyring refused to read ({error})"},
    "vault_keyring_save": {"zh": "系统钥匙串拒绝保存（{error}）", "en": "the keyring refused to save ({error})"},
    "vault_keyring_delete": {"zh": "系统钥匙串拒绝删除（{error}）", "en": "the keyring refused to delete ({error})"},
    "vault_needs_password": {"zh": "加密文件需要一个密码", "en": "the vault file needs a password"},
    "vault_wrong_password": {"zh": "{path} 的密码不对", "en": "wrong password for {path}"},
    "vault_unreadable": {
        "zh": "{path} 不是能读取的加密文件（{kind}）",
        "en": "{path} is not a readable vault file ({kind})",
    },
    "vault_locked": {
        "zh": "加密文件 {path} 还锁着：请先输入它的密码",
        "en": "the vault file {path} is locked: enter its password first",
    },
    "totp_empty": {"zh": "手机令牌密钥是空的", "en": "the mobile-token secret is empty"},
    "totp_not_base32": {
        "zh": "手机令牌密钥不是 base32（只能有字母 A-Z 和数字 2-7）",
        "en": "the mobile-token secret is not base32 (letters A-Z and digits 2-7)",
    },
}
