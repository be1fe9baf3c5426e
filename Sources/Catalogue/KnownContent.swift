/// What a batch does with content the catalogue already holds.
public enum KnownContent: Sendable {
    /// It only gains the path (an import: the content was classified when it
    /// first came, whichever process stored it first).
    case gainsPathOnly
    /// It gains the path and this run's classification (`classify`, asked for one).
    case isClassifiedAgain
}
