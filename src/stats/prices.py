#!/usr/bin/env python3
"""Writes src/stats/prices.json, the price table ysess embeds, from LiteLLM's
model_prices_and_context_window.json as one pinned release of the `litellm`
wheel on PyPI ships it.

    python3 src/stats/prices.py                 # downloads the pinned wheel with pip
    python3 src/stats/prices.py --json FILE     # or reads a copy of the table

Only the models of the agents ysess reads (or is about to) are kept:
Anthropic's Claude, OpenAI's GPT, o-series and codex models, Google's Gemini
(the `gemini/` entries, named without the prefix) and Alibaba's Qwen (the
`dashscope/` entries, likewise), chat and responses models only, with the
fields ysess prices by: dollars per token of input, output, cache read,
cache write (5 minutes and 1 hour) and the same above 200,000 tokens.
Values are copied as LiteLLM writes them, never converted.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile

LITELLM = "1.103.0"
# PyPI's upload time of that release; its table is, model for model and
# field for field, the snapshot ccusage 20.0.24 embeds (tests/ccusage).
RELEASED = "2026-09-27"
INNER = "litellm/model_prices_and_context_window_backup.json"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prices.json")

FIELDS = [
    "input_cost_per_token",
    "output_cost_per_token",
    "cache_read_input_token_cost",
    "cache_creation_input_token_cost",
    "cache_creation_input_token_cost_above_1hr",
    "input_cost_per_token_above_200k_tokens",
    "output_cost_per_token_above_200k_tokens",
    "cache_read_input_token_cost_above_200k_tokens",
    "cache_creation_input_token_cost_above_200k_tokens",
    "cache_creation_input_token_cost_above_1hr_above_200k_tokens",
]
MODES = {"chat", "responses", None}
# Fast mode (Claude Code's `usage.speed: "fast"`, Codex's `fast` service
# tier, recorded as `priority`) costs a multiple of the model's price:
# LiteLLM's `provider_specific_entry.fast` where it gives one; for the models
# it does not, ccusage 20.0.24's own overrides (its embedded fast-multiplier
# table, measured by running it on a session of each model in fast mode; the
# tests check Claude Code's and Codex's): Anthropic's fast-mode price of Opus
# 4.6 and 4.7 is six times the standard one; OpenAI's priority processing
# of the newest GPT models two to two and a half times.
FAST = {
    "claude-opus-4-6": 6.0,
    "claude-opus-4-7": 6.0,
    "gpt-5.3-codex": 2.0,
    "gpt-5.4": 2.0,
    "gpt-5.5": 2.5,
    "gpt-5.6-sol": 2.0,
    "gpt-5.6-terra": 2.0,
    "gpt-5.6-luna": 2.0,
}
# (key prefix in LiteLLM, litellm_provider): the prefix is dropped from the name.
SOURCES = [
    ("", "anthropic"),
    ("", "openai"),
    ("gemini/", "gemini"),
    ("dashscope/", "dashscope"),
]


def wheel_table(version):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "--quiet", "-d", tmp, f"litellm=={version}"],
            check=True,
        )
        (wheel,) = [f for f in os.listdir(tmp) if f.endswith(".whl")]
        with zipfile.ZipFile(os.path.join(tmp, wheel)) as z:
            return z.read(INNER)


def trim(table):
    models = {}
    for prefix, provider in SOURCES:
        for key, entry in table.items():
            if not isinstance(entry, dict) or entry.get("litellm_provider") != provider:
                continue
            if not key.startswith(prefix):
                continue
            name = key[len(prefix):]
            if "/" in name or entry.get("mode") not in MODES:
                continue
            if not isinstance(entry.get("input_cost_per_token"), (int, float)):
                continue  # priced per request, per second or in ranges: not by token
            if name in models:
                continue  # the first source that names a model gives its price
            models[name] = {f: entry[f] for f in FIELDS if isinstance(entry.get(f), (int, float))}
            fast = (entry.get("provider_specific_entry") or {}).get("fast")
            if isinstance(fast, (int, float)):
                models[name]["fast"] = fast
    # The overrides, for each name of the model (dated ones too).
    for name in models:
        for model, multiple in FAST.items():
            if (name == model or name.startswith(model + "-20")) and "fast" not in models[name]:
                models[name]["fast"] = multiple
    return dict(sorted(models.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="a copy of model_prices_and_context_window.json to read")
    ap.add_argument("-o", "--output", default=OUT)
    args = ap.parse_args()
    raw = open(args.json, "rb").read() if args.json else wheel_table(LITELLM)
    models = trim(json.loads(raw))
    head = {
        "generated": "by src/stats/prices.py; do not edit, run it again",
        "source": f"LiteLLM's model_prices_and_context_window.json, as the litellm {LITELLM} "
                  f"wheel on PyPI ({RELEASED}) ships it ({INNER})",
        "litellm": LITELLM,
        "sha256": hashlib.sha256(raw).hexdigest(),
        "unit": "dollars per token",
    }
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v)},")
    lines.append('  "models": {')
    rows = [f"    {json.dumps(name)}: {json.dumps(p)}" for name, p in models.items()]
    lines.append(",\n".join(rows))
    lines.append("  }")
    lines.append("}")
    with open(args.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{args.output}: {len(models)} models from litellm {LITELLM}", file=sys.stderr)


if __name__ == "__main__":
    main()
