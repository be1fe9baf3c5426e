-- The files importers split between them, as SQLite's step 23 keeps them (see
-- migrations/0023_file_leases.sql).
CREATE TABLE file_leases (
    machine    text COLLATE "C" NOT NULL,
    path       text COLLATE "C" NOT NULL,
    size       bigint NOT NULL,
    mtime_ns   bigint NOT NULL,
    owner      text   NOT NULL,
    expires_at bigint NOT NULL,
    PRIMARY KEY (machine, path)
);
CREATE INDEX file_leases_by_owner ON file_leases(owner);
