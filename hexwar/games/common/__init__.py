"""What several games share that is no rule of the engine's: the wording and numbering of a
rulebook two games follow (the skirmish ruleset keeps Assault on Narvik's), and the parts of
a presenter the land games have in common. Not a game: it registers nothing."""
