"""The dice reader: pipped dice read by two small nets (:func:`read_dice`), and symbol
dice the host teaches at the table (:mod:`vision.dice.taught`), read together in one roll.

The nets and their thresholds ship inside this package (``models/``, loaded by
:mod:`vision.dice.nets`); the scripts that train them live outside the box, in
``training/``.
"""

from vision.dice.read import DiceReading, Die, read_dice
from vision.dice.taught import TaughtDice, add_face, check_name, face_patch, forget_die, taught_dice, teach_die

__all__ = [
    "DiceReading",
    "Die",
    "TaughtDice",
    "add_face",
    "check_name",
    "face_patch",
    "forget_die",
    "read_dice",
    "taught_dice",
    "teach_die",
]
