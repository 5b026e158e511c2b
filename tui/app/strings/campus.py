"""The app's own UI strings (Chinese and English): the campus account: logins, the mobile token, the vault."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    # -- the campus account --------------------------------------------------------------------------
    "campus_account": {"zh": "校园账号", "en": "Campus account"},
    "login_needed": {
        "zh": "{service}需要登录：插件要用你的校园账号读取数据（密码只交给北京大学统一身份认证）",
        "en": "{service} needs you to log in: a plugin reads it as you (the password only goes to PKU IAAA)",
    },
    "login_title": {"zh": "登录北京大学统一身份认证（IAAA）", "en": "Log in with PKU IAAA"},
    "login_for": {"zh": "插件要用这些校园服务：{services}", "en": "Your plugins use: {services}"},
    "student_id": {"zh": "学号 / 职工号", "en": "Student or staff id"},
    "iaaa_password": {"zh": "IAAA 密码", "en": "IAAA password"},
    "otp_placeholder": {
        "zh": "手机令牌或短信验证码（需要时才填）",
        "en": "Token or SMS code, if needed",
    },
    "sms_send": {"zh": "发短信验证码", "en": "Text me a code"},
    "sms_sent": {
        "zh": "验证码已发到 {phone}：填到上面再按「登录」（{seconds} 秒后可以再发）",
        "en": "The code went to {phone}: enter it above, then Log in (you can resend in {seconds} s)",
    },
    "sms_wait": {"zh": "再发（{seconds}）", "en": "Resend ({seconds})"},
    "captcha_needed": {
        "zh": "IAAA 现在要填图片验证码（密码错过几次后会这样）：请先在浏览器里登录一次 IAAA，再回来登录（{error}）",
        "en": "IAAA now wants a picture code (after wrong passwords): log in to IAAA once in a browser, then here "
        "({error})",
    },
    "sms_needed_because": {
        "zh": "这个账号登录要短信验证码：按「发短信验证码」，再把收到的 6 位数字填上（{error}）",
        "en": "This account logs in with an SMS code: press Text me a code, then enter the 6 digits ({error})",
    },
    "remember_password": {
        "zh": "记住密码（系统钥匙串），过期时自动重新登录",
        "en": "Remember it (keyring): log in again by itself",
    },
    "remember_password_file": {
        "zh": "记住密码（加密文件），过期时自动重新登录",
        "en": "Remember it (encrypted file): log in again by itself",
    },
    "remember_password_memory": {
        "zh": "记住密码到退出为止，过期时自动重新登录",
        "en": "Remember it until the app exits: log in again by itself",
    },
    "no_keyring": {
        "zh": "这台电脑没有可用的钥匙串：登录信息只保存在内存里，退出 App 就会忘记。可以选择用密码保护的加密文件保存。",
        "en": "No usable keyring here: logins are kept in memory and forgotten when the app exits. You can choose a "
        "password-protected file instead.",
    },
    "qr_login": {"zh": "扫码登录", "en": "QR code"},
    "login": {"zh": "登录", "en": "Log in"},
    "logout": {"zh": "退出登录", "en": "Log out"},
    "login_fill": {"zh": "请填写学号和密码", "en": "Enter your id and password"},
    "logging_in": {"zh": "正在登录…", "en": "Logging in…"},
    "otp_needed_because": {
        "zh": "这个账号开启了手机令牌：请填写令牌上的 6 位验证码（{error}）",
        "en": "This account uses the mobile token: enter its 6-digit code ({error})",
    },
    "otp_needed": {
        "zh": "这个账号开启了手机令牌：请填写令牌上的 6 位验证码",
        "en": "This account uses the mobile token: enter its 6-digit code",
    },
    "qr_scan": {
        "zh": "请用「北京大学」App 扫码并确认（登录{service}）",
        "en": "Scan with the PKU app and confirm ({service})",
    },
    "qr_each": {
        "zh": "——第 {number}/{count} 个：扫码只登录一个服务，每个服务扫一次",
        "en": " — {number} of {count}: a scan logs in one service, so each needs its own",
    },
    "qr_timeout": {"zh": "二维码已过期，请再点一次扫码登录", "en": "The QR code expired; press QR code again"},
    "token": {"zh": "手机令牌", "en": "Mobile token"},
    "token_have": {"zh": "已有令牌密钥：直接输入", "en": "Have the secret? Enter it"},
    "token_secret": {"zh": "令牌密钥（base32）", "en": "Token secret (base32)"},
    "token_bind": {
        "zh": "或者通过 IAAA 绑定一个新令牌（会发短信验证码）",
        "en": "Or bind a new token through IAAA (texts you a code)",
    },
    "send_code": {"zh": "发送验证码", "en": "Send code"},
    "bind": {"zh": "绑定", "en": "Bind"},
    "token_forget": {"zh": "忘记令牌", "en": "Forget the token"},
    "close": {"zh": "关闭", "en": "Close"},
    "code_sent_to": {"zh": "验证码已发到 {phone}", "en": "Code sent to {phone}"},
    "send_code_first": {"zh": "请先发送验证码", "en": "Send the code first"},
    "token_bound": {"zh": "手机令牌已绑定", "en": "mobile token bound"},
    "token_none": {"zh": "没有手机令牌", "en": "no mobile token"},
    "vault_keyring": {"zh": "保存在系统钥匙串", "en": "kept in the keyring"},
    "vault_memory": {"zh": "只保存在内存里（本次运行）", "en": "kept in memory (this run only)"},
    "vault_file": {"zh": "保存在加密文件", "en": "kept in an encrypted file"},
    "vault_locked": {"zh": "未解锁", "en": "locked"},
    "vault_choose": {"zh": "加密文件…", "en": "Encrypted file…"},
    "vault_password": {"zh": "加密文件的密码", "en": "Password of the encrypted file"},
    "vault_explain": {
        "zh": "把校园登录信息保存在一个用密码加密的文件里（AES-GCM，scrypt），只有你能读。文件不存在时会新建。",
        "en": "Keep campus logins in a file encrypted with a password (AES-GCM, scrypt), readable only by you. A new "
        "file is created if none exists.",
    },
    "vault_use": {"zh": "使用这个文件", "en": "Use this file"},
    "service": {"zh": "服务", "en": "Service"},
    "name": {"zh": "名称", "en": "Name"},
    "state": {"zh": "状态", "en": "State"},
    "until": {"zh": "有效期至", "en": "Valid until"},
    "campus_logged_in": {"zh": "已登录", "en": "logged in"},
    "campus_expired": {"zh": "已过期（会自动重新登录）", "en": "expired (logs in again by itself)"},
    "campus_logged_out": {"zh": "未登录", "en": "not logged in"},
    "campus_verification": {"zh": "等待验证码", "en": "waiting for a code"},
    "campus_unsupported": {"zh": "暂不支持", "en": "not supported yet"},
    "campus_saved": {"zh": "校园账号已更新", "en": "Campus account updated"},
    "logout_confirm": {
        "zh": "退出所有校园服务并删除保存的密码？（手机令牌保留）",
        "en": "Log out of every campus service and delete the stored password? (The mobile token stays.)",
    },
}
