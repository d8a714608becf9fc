"""HTML pictures of deals and results: the pieces every result's `_repr_html_` uses, and the
self-contained report page. It only presents what it is given; it never solves.
"""
