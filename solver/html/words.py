"""The labels of the report in the language of its card notation: English for "en", Dutch for
"nl" (whose cards the page then shows too, "♠B" for the jack of spades).

A label is written in English with named blanks; `say(notation)` gives the function that
fills in the blanks of its translation (the English one where no translation is given).

>>> say("nl")("trick {number}: {leader} leads", number=3, leader="W")
'slag 3: W komt uit'
>>> say("en")("Tricks")
'Tricks'
"""
from __future__ import annotations

from typing import Any, Callable, Dict

from ..model.cards import check_notation

DUTCH: Dict[str, str] = {
    # the page
    "klaverjas-solver report": "klaverjas-solver-verslag",
    "{playing} plays {trump}": "{playing} speelt {trump}",
    "{bidder} bids ledig": "{bidder} speelt ledig",
    "({trump} trump)": "({trump} troef)",
    "(no trump)": "(zonder troef)",
    "{leader} leads": "{leader} komt uit",
    "dealer {dealer}": "gever {dealer}",
    "Replay": "Naspelen",
    "◀ previous": "◀ vorige",
    "next ▶": "volgende ▶",
    "Use the arrow keys too. Under each legal card: its double-dummy value for the side to "
    "play; the card played is green when optimal, red when it lost {unit}.":
        "Ook met de pijltjestoetsen. Onder elke speelbare kaart: haar double-dummy-waarde voor "
        "de partij aan slag; de gespeelde kaart is groen als ze optimaal was, rood als ze "
        "{unit} verloor.",
    "The double-dummy value, card by card": "De double-dummy-waarde, kaart na kaart",
    "Tricks": "Slagen",
    "Result": "Uitslag",
    "Double-dummy table and the bid": "Double-dummy-tabel en het bod",
    "The ledig table": "De ledig-tabel",
    "points": "punten",
    "tricks": "slagen",
    # the replay's notes
    "{played} of {total} cards played: {seat} to play ({who}values for {team}); ":
        "{played} van {total} kaarten gespeeld: {seat} aan slag ({who}waarden voor {team}); ",
    "{seat} plays {card} next, optimal": "{seat} speelt nu {card}, optimaal",
    "{seat} plays {card} next, which {loses}": "{seat} speelt nu {card}, die {loses}",
    "{total} of {total} cards played: end of the recorded play":
        "{total} van {total} kaarten gespeeld: einde van het gespeelde spel",
    "the dummy, played by {name}; ": "de blinde, gespeeld door {name}; ",
    # losses
    "lost {loss}": "verloor {loss}",
    "loses {loss}": "verliest {loss}",
    "gave the bidder {tricks} more": "gaf de bieder {tricks} meer",
    "gives the bidder {tricks} more": "geeft de bieder {tricks} meer",
    "let the bidder take {tricks} fewer": "liet de bieder {tricks} minder halen",
    "lets the bidder take {tricks} fewer": "laat de bieder {tricks} minder halen",
    "1 trick": "1 slag",
    "{count} tricks": "{count} slagen",
    # the tricks
    "trick {number}: {leader} leads": "slag {number}: {leader} komt uit",
    "won by {winner} ({team})": "gewonnen door {winner} ({team})",
    ", {points} points": ", {points} punten",
    ", the bidder's first trick: ledig goes down": ", de eerste slag van de bieder: ledig gaat nat",
    ", the bidder's": ", van de bieder",
    # the tables
    "trump \\ leader": "troef \\ uitkomst",
    "bidder \\ leader": "bieder \\ uitkomst",
    "points for {team}; * {team} makes it": "punten voor {team}; * {team} haalt het",
    "ledig: minus the tricks the bidder takes with best play; * the bidder takes none":
        "ledig: min de slagen die de bieder haalt bij beste spel; * de bieder haalt er geen",
    # the chart
    "card {number}": "kaart {number}",
    "━ double-dummy value for {team}": "━ double-dummy-waarde voor {team}",
    "minus the tricks {bidder} took so far": "min de slagen die {bidder} tot nu toe haalde",
    "points so far, {playing} less {other} (cards, roem, pit)":
        "punten tot nu toe, {playing} min {other} (kaarten, roem, pit)",
    "● a card that lost {unit}": "● een kaart die {unit} verloor",
    # the result
    "Totals: {totals}.": "Totaal: {totals}.",
    "Score: {scores} ({verdict}).": "Score: {scores} ({verdict}).",
    "made": "gemaakt",
    "revoke": "verzaakt",
    "Unfinished after {count} cards.": "Onaf na {count} kaarten.",
    "Double dummy: {value} points for {playing}, {makeable}; score {score}.":
        "Double dummy: {value} punten voor {playing}, {makeable}; score {score}.",
    "makeable": "haalbaar",
    "not makeable": "niet haalbaar",
    "Points given away: {losses}.": "Weggegeven punten: {losses}.",
    "Against best play, {losses}.": "Tegen beste spel {losses}.",
    "{own} gave the bidder {more} more": "gaf {own} de bieder {more} meer",
    "{other} let the bidder take {fewer} fewer": "liet {other} de bieder {fewer} minder halen",
    " and ": " en ",
    "Against best play, no card cost anything.": "Tegen beste spel kostte geen kaart iets.",
    "{team} took all 8 tricks (pit).": "{team} haalde alle 8 slagen (pit).",
    # the players
    "Players: ": "Spelers: ",
    "Per player: ": "Per speler: ",
    "Two players: ": "Twee spelers: ",
    "{who} holds {first} and {second}": "{who} heeft {first} en {second}",
    "holds {first} and {second}": "heeft {first} en {second}",
    "Three players: {name} plays {chooser} and the dummy, {dummy} (the silent partner); "
    "{defenders} defend. ": "Drie spelers: {name} speelt {chooser} en de blinde, {dummy} (de "
                            "stille partner); {defenders} verdedigen. ",
    "The defenders see the dummy's hand from the start.":
        "De verdedigers zien de hand van de blinde vanaf het begin.",
    "The defenders see the dummy's hand once the first card is on the table.":
        "De verdedigers zien de hand van de blinde zodra de eerste kaart op tafel ligt.",
    "The defenders never see the dummy's hand, only its cards as they are played.":
        "De verdedigers zien de hand van de blinde nooit, alleen haar kaarten als ze gespeeld "
        "worden.",
    "chooser, with dummy {dummy}": "kiezer, met blinde {dummy}",
    "defender": "verdediger",
    "playing": "speelt",
    # ledig
    "{bidder} bid ledig with {leader} leading: ": "{bidder} speelde ledig met {leader} als uitkomst: ",
    "makeable, the bidder takes no trick with best play.":
        "haalbaar, de bieder haalt bij beste spel geen slag.",
    "not makeable: with best play by both sides {bidder} takes {tricks}.":
        "niet haalbaar: bij beste spel van beide kanten haalt {bidder} {tricks}.",
    " With {leader} leading, ledig was makeable for {seats}.":
        " Met {leader} als uitkomst was ledig haalbaar voor {seats}.",
    "no seat": "geen plaats",
    "Tricks: {totals}; ": "Slagen: {totals}; ",
    "{bidder} took no trick.": "{bidder} haalde geen slag.",
    "{bidder} took its first trick at trick {first}.":
        "{bidder} haalde zijn eerste slag in slag {first}.",
    "failed": "nat",
    "Double dummy: {value} for {playing} ({what}); score {score}.":
        "Double dummy: {value} voor {playing} ({what}); score {score}.",
    "the bidder takes no trick": "de bieder haalt geen slag",
    "{bidder} takes {tricks}": "{bidder} haalt {tricks}",
    # the bid
    "{playing} chose {trump} with {leader} leading: {makeable} ({value}).":
        "{playing} koos {trump} met {leader} als uitkomst: {makeable} ({value}).",
    " Best of the four trumps with {leader} leading was {best}: {value}, {makeable}.":
        " De beste van de vier troeven met {leader} als uitkomst was {best}: {value}, {makeable}.",
    " That was the best of the four trumps with {leader} leading.":
        " Dat was de beste van de vier troeven met {leader} als uitkomst.",
    # the rules
    "no duty to trump over a partner who is winning (Amsterdam)":
        "geen plicht om te troeven als je maat de slag heeft (Amsterdams)",
    "trumping even over partner (Rotterdam)": "altijd troeven, ook over je maat (Rotterdams)",
    "undertrumping only with nothing else": "ondertroeven alleen als het niet anders kan",
    "undertrumping required": "ondertroeven verplicht",
    "undertrumping free": "ondertroeven vrij",
    "roem in the tricks": "roem in de slagen",
    "roem in hand": "roem uit de hand",
    "no roem": "geen roem",
    "stuk in one trick": "stuk in één slag",
    "stuk for the seat dealt it": "stuk voor wie het in de hand kreeg",
    "no stuk": "geen stuk",
    "pit {bonus} for either team": "pit {bonus} voor beide partijen",
    "pit {bonus} for the playing team only": "pit {bonus} alleen voor de spelende partij",
    "no pit": "geen pit",
    "nat unless strictly ahead": "nat tenzij meer punten dan de tegenpartij",
    "nat below 82 card points": "nat onder de 82 kaartpunten",
    "no nat": "geen nat",
    "double {suits}": "dubbel {suits}",
    "zero bonus {bonus}": "nulbonus {bonus}",
    "no trump, only the duty to follow suit": "geen troef, alleen bekennen is verplicht",
    "the round's trump with the duties of the trump game: {duty}, {under}":
        "de troef van de ronde met de plichten van het troefspel: {duty}, {under}",
    "Ledig: the bidder undertakes to take no trick; {bonus} to the side that wins the "
    "contract; {trump}.": "Ledig: de bieder belooft geen slag te halen; {bonus} voor de partij "
                         "die het contract wint; {trump}.",
    # the legends of the replay
    "open throughout, as the defenders see it from the start":
        "steeds open, zoals de verdedigers haar vanaf het begin zien",
    "face down until the first card is on the table, open from then on, as the defenders "
    "see it": "dicht tot de eerste kaart op tafel ligt en daarna open, zoals de verdedigers "
              "haar zien",
    "face down throughout, as the defenders never see it":
        "steeds dicht, zoals de verdedigers haar nooit zien",
    " The dummy's hand ({dummy}) is shown {when}; on its own turn it is open, as the chooser "
    "who plays it sees it.": " De hand van de blinde ({dummy}) ligt {when}; aan haar eigen "
                             "beurt ligt ze open, zoals de kiezer die haar speelt haar ziet.",
    "{first} to {last}": "{first} tot {last}",
    " (drawn under the {belief} belief)": " (getrokken onder belief {belief})",
    " Single dummy, over {counted} worlds its player could not tell from the real one{drawn}, "
    "the card played is outlined dashed: red for a mistake, amber for a small loss (surely "
    "worse than the single-dummy best card, by less than a mistake), orange when unlucky (a "
    "double-dummy loss, but as good as the best card on what the player could know), grey "
    "when uncertain (more worlds would decide); the note gives its expected loss with the 95% "
    "interval.": " Single dummy, over {counted} werelden die de speler niet van de echte kon "
                 "onderscheiden{drawn}, krijgt de gespeelde kaart een gestreepte rand: rood voor "
                 "een fout, amber voor een klein verlies (zeker slechter dan de beste "
                 "single-dummy-kaart, maar minder dan een fout), oranje bij pech (een "
                 "double-dummy-verlies, maar even goed als de beste kaart op wat de speler kon "
                 "weten), grijs bij twijfel (meer werelden zouden beslissen); de notitie geeft "
                 "het verwachte verlies met het 95%-interval.",

}

LABELS = {"en": {}, "nl": DUTCH}

# The language of the page (<html lang=...>) in each notation.
LANGUAGE = {"en": "en", "nl": "nl"}


def say(notation: str = "en") -> Callable[..., str]:
    """The function that writes a label in `notation`'s language: `say("nl")("Tricks")`."""
    labels = LABELS[check_notation(notation)]

    def label(text: str, **blanks: Any) -> str:
        return labels.get(text, text).format(**blanks)
    return label
