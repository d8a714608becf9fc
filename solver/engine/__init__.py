"""The search: the Cython engine (`_engine.pyx` and one `.pxi` unit per search concept), the
one place it is imported (`_compiled`), `Solver` over it (`search`), what each objective means
to the search (`objectives`), how cards are packed for it (`packing`), and the plain minimax it
is checked against (`reference`). It imports only `solver.model`.
"""
