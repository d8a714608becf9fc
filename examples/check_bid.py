"""Check a bid: was it makeable, and which trump should the bidder have chosen?

Run: python examples/check_bid.py
"""
from solver import Deal, Rules, analyse_bidding

deal = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
# West dealt and turned a spade; North took it ("speel").
analysis = analyse_bidding(deal, dealer="W", rules=Rules.rotterdam(), procedure="draaikaart",
                           turned="S", bid=("N", "S"))
print(analysis)
