"""The adjudication of Horizon's self-play matches: SELFPLAY_ADJUDICATION in
scripts/match/opponents.sh, their one owner (sprt.sh uses them there; spsa.py and
adjudication.py read them through this)."""
import os
import subprocess

OPPONENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "match",
                         "opponents.sh")


def selfplay_adjudication():
    """The fastchess arguments of SELFPLAY_ADJUDICATION, as a list of words."""
    out = subprocess.run(["bash", "-c", '. "$1" && printf "%s\\n" "${SELFPLAY_ADJUDICATION[@]}"',
                          "bash", OPPONENTS], capture_output=True, text=True, check=True)
    return out.stdout.split()


def settings(arguments):
    """{"-resign": {"movecount": "3", ...}, "-draw": {...}} from fastchess arguments."""
    found, flag = {}, None
    for word in arguments:
        if word.startswith("-"):
            flag = found.setdefault(word, {})
        else:
            key, value = word.split("=", 1)
            flag[key] = value
    return found
