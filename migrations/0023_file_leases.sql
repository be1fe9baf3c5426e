-- Several `wardrobe import` processes on one folder and one catalogue split its files: a
-- process reads a file only while it holds the file's lease here, taken a few files at a
-- time. A lease names its holder (`RunOwner`) and lasts until `expires_at`, which the
-- holder's heartbeat keeps moving while it lives; one that has expired (its holder died) is
-- taken over by the next process that wants the file. A file stored or failing with the
-- size and time it has now is not leased at all, so a process that comes late reads nothing
-- another has done. The holder gives its leases up when its run ends.
CREATE TABLE file_leases (
    machine    TEXT    NOT NULL,
    path       TEXT    NOT NULL,
    size       INTEGER NOT NULL,
    mtime_ns   INTEGER NOT NULL,
    owner      TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (machine, path)
) WITHOUT ROWID;
CREATE INDEX file_leases_by_owner ON file_leases(owner);
