"""A refused value: a setting the plugin lacks, and the rule an input field or a setting takes, in words."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "setting_unknown": {
        "zh": "插件 {plugin} 没有设置项 {key}（有：{known}）",
        "en": "plugin {plugin} has no setting {key} (it has: {known})",
    },
    "field_takes": {"zh": "{title}要填{rule}", "en": "{title} takes {rule}"},
    "field_takes_number": {"zh": "{title}要填 {rule}", "en": "{title} takes {rule}"},
    "rule_one_of": {"zh": "其中之一：{values}", "en": "one of: {values}"},
    "rule_some_of": {"zh": "其中的一项或几项：{values}", "en": "one or more of: {values}"},
    "rule_whole_number": {"zh": "整数", "en": "a whole number"},
    "rule_number": {"zh": "数字", "en": "a number"},
    "rule_between": {"zh": "{min} 到 {max} 之间的{noun}", "en": "{noun} from {min} to {max}"},
    "rule_at_least": {"zh": "不小于 {bound} 的{noun}", "en": "{noun} of at least {bound}"},
    "rule_at_most": {"zh": "不大于 {bound} 的{noun}", "en": "{noun} of at most {bound}"},
    "rule_pattern": {"zh": "要求格式的文字", "en": "text of the required form"},
    "rule_digits": {"zh": "{count} 位数字", "en": "{count} digits"},
    "rule_digits_between": {"zh": "{min} 到 {max} 位数字", "en": "{min} to {max} digits"},
    "rule_digits_only": {"zh": "数字", "en": "digits"},
    "rule_text_at_most": {"zh": "最多 {max} 个字", "en": "text of at most {max} characters"},
    "rule_text": {"zh": "文字", "en": "text"},
    "rule_boolean": {"zh": "是或否", "en": "yes or no"},
    "rule_array": {"zh": "一组值（每行一个，或用逗号隔开）", "en": "a list (one a line, or separated by commas)"},
    "rule_object": {"zh": "一个 JSON 对象", "en": "a JSON object"},
}
