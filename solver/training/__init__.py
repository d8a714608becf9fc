"""Training a card network (`solver.network.CardNetwork`) from a labels folder with PyTorch,
the `[train]` extra; `klaverjas train` runs it. Playing the result needs NumPy alone.

- `training_rows(folder)`: the labels' rows in the network's trump-first picture, with each
  legal card's centred single-dummy value as the target (`solver.training.rows`).
- `train(rows, TrainingOptions(...))`: the fitted network, the epoch best on the held-out
  deals, its info saying how it was made (`solver.training.fit`).

    from solver.training import TrainingOptions, train, training_rows
    network = train(training_rows("labels/"), TrainingOptions(hidden=256, epochs=10))
    network.save("mine.npz")        # klaverjas arena --team-a learned:mine.npz --team-b rule
"""
from .fit import TrainingOptions, import_torch, train
from .rows import TrainingRows, held_out, training_rows

__all__ = ["TrainingOptions", "TrainingRows", "train", "training_rows", "held_out",
           "import_torch"]
