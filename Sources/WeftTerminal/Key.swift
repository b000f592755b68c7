/// A key press (or terminal event) read from a ``Terminal``.
package enum Key: Sendable, Hashable {
    /// A printable character, such as `q` or `猫`.
    case char(Character)
    /// Return or Enter.
    case enter
    /// Escape (cancels; never quits).
    case escape
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home: to the first row.
    case home
    /// End: to the last row.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// The terminal changed size; re-lay out and redraw.
    case resize
    /// Ctrl-C read as a key (in cbreak mode it normally arrives as SIGINT instead).
    case ctrlC
    /// Backspace or Delete.
    case backspace
    /// Tab.
    case tab
    /// A mouse click or wheel step (when mouse reporting is on).
    case mouse(MouseEvent)
    /// No key is waiting.
    case none
    /// A key the app does not handle, with its raw ncurses code.
    case unknown(Int32)
}
