"""The training-data line as the scripts read it: '<FEN> | <score> | <result>', as `horizon
datagen` writes it (scripts/train/relabel.py, eval_residuals.py)."""


def split_line(line):
    """A data line's FEN, score and result text; a malformed line is an error."""
    parts = [p.strip() for p in line.split("|")]
    if len(parts) != 3:
        raise ValueError(f"not '<FEN> | <score> | <result>': {line.rstrip()}")
    return parts
