/// The start position's board as the line-by-line console draws it, coordinates on all four sides
/// and no newline at the end (the piece counts and the turn follow it).
public let startDiagram = """
        a  b  c  d  e  f  g
     7  x  .  .  .  .  .  o  7
     6  .  .  .  .  .  .  .  6
     5  .  .  .  .  .  .  .  5
     4  .  .  .  .  .  .  .  4
     3  .  .  .  .  .  .  .  3
     2  .  .  .  .  .  .  .  2
     1  o  .  .  .  .  .  x  1
        a  b  c  d  e  f  g
    """
