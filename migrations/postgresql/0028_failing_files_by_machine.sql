-- A file that fails to import is recorded with the machine it failed on, the key the two
-- together, as SQLite's step 28 keeps them (see migrations/0028_failing_files_by_machine.sql):
-- rows recorded before get the empty name, which the first machine to open the catalogue
-- for writing takes.
ALTER TABLE failing_files ADD COLUMN machine text COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE failing_files DROP CONSTRAINT failing_files_pkey;
ALTER TABLE failing_files ADD PRIMARY KEY (machine, path);

-- A path stored, or seen again, stops failing on the machine it was seen on only.
CREATE OR REPLACE FUNCTION stored_paths_stop_failing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM failing_files AS f USING added AS a WHERE f.machine = a.machine AND f.path = a.path;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION seen_paths_stop_failing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM failing_files WHERE machine = NEW.machine AND path = NEW.path;
    RETURN NULL;
END $$;
