//! Parquet files of typed columns: a table's schema ([`Column`]), its rows
//! buffered column by column ([`Columns`]), and a file that is written to
//! a temporary name and put in place only when whole ([`Part`]).

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::{WriterProperties, WriterVersion};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type};

/// A column's type, as engines read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// UTF-8 text (`VARCHAR`).
    Text,
    /// A 64-bit integer (`BIGINT`).
    Int,
    /// Milliseconds since the epoch, UTC (`TIMESTAMP WITH TIME ZONE`).
    Time,
    /// A 64-bit float (`DOUBLE`).
    Float,
    /// `BOOLEAN`.
    Bool,
    /// A list of texts (`VARCHAR[]`), never null, maybe empty.
    Texts,
}

/// One column of a table.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
    /// Whether a row may have no value.
    pub nullable: bool,
    /// Whether its values repeat enough for a dictionary to pay (models,
    /// roles, tools); unique values (ids, subjects) are stored plain.
    pub dictionary: bool,
}

/// A value of one row's cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell<'a> {
    /// No value (`NULL`).
    Null,
    /// Text.
    Text(Cow<'a, str>),
    /// An integer, or a time in ms.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// Texts.
    Texts(Vec<Cow<'a, str>>),
}

/// The Parquet schema of `columns`.
fn schema(columns: &[Column]) -> parquet::errors::Result<Type> {
    let mut text = String::from("message ysess {\n");
    for c in columns {
        let rep = if c.nullable { "optional" } else { "required" };
        let n = c.name;
        let line = match c.kind {
            Kind::Text => format!("{rep} binary {n} (STRING);"),
            Kind::Int => format!("{rep} int64 {n};"),
            Kind::Time => format!("{rep} int64 {n} (TIMESTAMP(MILLIS,true));"),
            Kind::Float => format!("{rep} double {n};"),
            Kind::Bool => format!("{rep} boolean {n};"),
            Kind::Texts => format!(
                "required group {n} (LIST) {{ repeated group list {{ required binary element (STRING); }} }}"
            ),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text.push('}');
    parquet::schema::parser::parse_message_type(&text)
}

/// One column's values, with the levels Parquet stores for nulls and lists;
/// texts one after another in one buffer, each ending where `ends` says.
#[derive(Debug, Default)]
struct Values {
    text: Vec<u8>,
    ends: Vec<usize>,
    ints: Vec<i64>,
    floats: Vec<f64>,
    bools: Vec<bool>,
    defs: Vec<i16>,
    reps: Vec<i16>,
}

/// Rows of one table, buffered column by column.
#[derive(Debug)]
pub struct Columns {
    columns: &'static [Column],
    values: Vec<Values>,
    rows: usize,
    bytes: usize,
}

impl Columns {
    /// No rows yet, of a table of `columns`.
    pub fn new(columns: &'static [Column]) -> Columns {
        Columns {
            columns,
            values: columns.iter().map(|_| Values::default()).collect(),
            rows: 0,
            bytes: 0,
        }
    }

    /// No rows yet, with room for `rows` rows: texts as long, row for row,
    /// as those `like` holds (16 bytes when there is none). Rows made in
    /// pieces of known size then grow no buffer from small, which would
    /// leave the allocator many small pieces to gather.
    pub fn with_rows(columns: &'static [Column], rows: usize, like: Option<&Columns>) -> Columns {
        let values = columns
            .iter()
            .enumerate()
            .map(|(c, column)| {
                let per_row = like
                    .filter(|l| l.rows > 0)
                    .map_or(16, |l| l.values[c].text.len().div_ceil(l.rows) + 1);
                let texts = matches!(column.kind, Kind::Text | Kind::Texts);
                let of = |yes: bool| if yes { rows } else { 0 };
                Values {
                    text: Vec::with_capacity(of(texts) * per_row),
                    ends: Vec::with_capacity(of(texts)),
                    ints: Vec::with_capacity(of(matches!(column.kind, Kind::Int | Kind::Time))),
                    floats: Vec::with_capacity(of(column.kind == Kind::Float)),
                    bools: Vec::with_capacity(of(column.kind == Kind::Bool)),
                    defs: Vec::with_capacity(of(column.nullable || column.kind == Kind::Texts)),
                    reps: Vec::with_capacity(of(column.kind == Kind::Texts)),
                }
            })
            .collect();
        Columns {
            columns,
            values,
            rows: 0,
            bytes: 0,
        }
    }

    /// Rows buffered.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// About how many bytes the buffered rows take.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Adds a row: one cell per column, in the columns' order. A cell of
    /// the wrong type, or a null where none is allowed, is a bug of the
    /// caller, and panics in tests.
    pub fn push<'a>(&mut self, row: impl IntoIterator<Item = Cell<'a>>) {
        let mut cells = 0;
        for ((cell, column), v) in row.into_iter().zip(self.columns).zip(&mut self.values) {
            cells += 1;
            let present = !matches!(cell, Cell::Null);
            debug_assert!(present || column.nullable, "{} is null", column.name);
            if column.nullable {
                v.defs.push(i16::from(present));
            }
            match cell {
                Cell::Null => {}
                Cell::Text(t) => {
                    self.bytes += t.len() + 8;
                    v.text.extend_from_slice(t.as_bytes());
                    v.ends.push(v.text.len());
                }
                Cell::Int(i) => {
                    self.bytes += 8;
                    v.ints.push(i);
                }
                Cell::Float(f) => {
                    self.bytes += 8;
                    v.floats.push(f);
                }
                Cell::Bool(b) => {
                    self.bytes += 1;
                    v.bools.push(b);
                }
                Cell::Texts(list) => {
                    if list.is_empty() {
                        v.defs.push(0);
                        v.reps.push(0);
                    }
                    for (i, t) in list.into_iter().enumerate() {
                        v.defs.push(1);
                        v.reps.push(i16::from(i > 0));
                        self.bytes += t.len() + 8;
                        v.text.extend_from_slice(t.as_bytes());
                        v.ends.push(v.text.len());
                    }
                }
            }
        }
        debug_assert_eq!(cells, self.columns.len());
        self.rows += 1;
    }

    /// Moves every row of `other` (of the same table) after these.
    pub fn append(&mut self, other: Columns) {
        for (mine, theirs) in self.values.iter_mut().zip(other.values) {
            let base = mine.text.len();
            mine.text.extend_from_slice(&theirs.text);
            mine.ends.extend(theirs.ends.iter().map(|e| e + base));
            mine.ints.extend(theirs.ints);
            mine.floats.extend(theirs.floats);
            mine.bools.extend(theirs.bools);
            mine.defs.extend(theirs.defs);
            mine.reps.extend(theirs.reps);
        }
        self.rows += other.rows;
        self.bytes += other.bytes;
    }
}

/// How a file's pages are compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pages {
    /// With zstd: the tables' data.
    Zstd,
    /// Not at all: a file of one session's few rows, where setting zstd up
    /// for each column costs more time than it saves bytes.
    Plain,
}

/// The writer's settings: Parquet 2 pages, compressed as `pages` says, a
/// dictionary only for the columns where one pays.
fn properties(columns: &[Column], pages: Pages) -> WriterProperties {
    let compression = match pages {
        Pages::Zstd => Compression::ZSTD(ZstdLevel::default()),
        Pages::Plain => Compression::UNCOMPRESSED,
    };
    let mut props = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_compression(compression)
        .set_created_by(format!("ysess {}", env!("CARGO_PKG_VERSION")))
        .set_dictionary_enabled(false);
    for c in columns {
        let path = match c.kind {
            Kind::Texts => ColumnPath::new(vec![c.name.into(), "list".into(), "element".into()]),
            _ => ColumnPath::from(c.name),
        };
        if c.dictionary {
            props = props.set_column_dictionary_enabled(path.clone(), true);
        }
        // Numbers, times and booleans are already packed small by their
        // encodings (delta, run length), and a dictionary's pages by theirs
        // (run length): zstd is set up for the other texts only.
        if c.dictionary || !matches!(c.kind, Kind::Text | Kind::Texts) {
            props = props.set_column_compression(path, Compression::UNCOMPRESSED);
        }
    }
    props.build()
}

/// One Parquet file being written: under a hidden temporary name in its
/// folder (engines skip names starting with `.`), put at its own name by
/// [`Part::finish`], never over a file already there.
pub struct Part {
    writer: SerializedFileWriter<BufWriter<File>>,
    columns: &'static [Column],
    temp: PathBuf,
    path: PathBuf,
}

fn parquet_error(e: parquet::errors::ParquetError) -> io::Error {
    match e {
        parquet::errors::ParquetError::External(e) => io::Error::other(e),
        e => io::Error::other(e.to_string()),
    }
}

impl Part {
    /// Starts the file that will be `path` (its folders made).
    pub fn create(path: PathBuf, columns: &'static [Column], pages: Pages) -> io::Result<Part> {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let file = File::options().write(true).create_new(true).open(&temp)?;
        let writer = schema(columns).and_then(|schema| {
            SerializedFileWriter::new(
                BufWriter::with_capacity(64 << 10, file),
                Arc::new(schema),
                Arc::new(properties(columns, pages)),
            )
        });
        let writer = match writer {
            Ok(writer) => writer,
            Err(e) => {
                let _ = std::fs::remove_file(&temp);
                return Err(parquet_error(e));
            }
        };
        Ok(Part {
            writer,
            columns,
            temp,
            path,
        })
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> usize {
        self.writer.bytes_written()
    }

    /// Writes `rows` as one row group.
    pub fn write(&mut self, rows: Columns) -> io::Result<()> {
        self.write_all(vec![rows])
    }

    /// Writes rows buffered in several pieces as one row group, each
    /// column piece after piece (no piece copied into another).
    pub fn write_all(&mut self, mut pieces: Vec<Columns>) -> io::Result<()> {
        pieces.retain(|p| p.rows > 0);
        if pieces.is_empty() {
            return Ok(());
        }
        let mut group = self.writer.next_row_group().map_err(parquet_error)?;
        for (c, column) in self.columns.iter().enumerate() {
            let mut writer = group
                .next_column()
                .map_err(parquet_error)?
                .ok_or_else(|| io::Error::other("the schema has fewer columns than the rows"))?;
            for piece in &mut pieces {
                let v = std::mem::take(&mut piece.values[c]);
                Part::write_values(&mut writer, column, v)?;
            }
            writer.close().map_err(parquet_error)?;
        }
        group.close().map_err(parquet_error)?;
        Ok(())
    }

    /// One piece of one column's values.
    fn write_values(
        writer: &mut parquet::file::writer::SerializedColumnWriter<'_>,
        column: &Column,
        v: Values,
    ) -> io::Result<()> {
        {
            let defs = (column.nullable || column.kind == Kind::Texts).then_some(&v.defs[..]);
            let reps = (column.kind == Kind::Texts).then_some(&v.reps[..]);
            match column.kind {
                Kind::Text | Kind::Texts => {
                    // Each text a slice of the one buffer, not a copy.
                    let all = bytes::Bytes::from(v.text);
                    let mut from = 0;
                    let texts: Vec<ByteArray> = v
                        .ends
                        .iter()
                        .map(|&end| {
                            let one = ByteArray::from(all.slice(from..end));
                            from = end;
                            one
                        })
                        .collect();
                    writer
                        .typed::<ByteArrayType>()
                        .write_batch(&texts, defs, reps)
                }
                Kind::Int | Kind::Time => {
                    writer.typed::<Int64Type>().write_batch(&v.ints, defs, reps)
                }
                Kind::Float => writer
                    .typed::<DoubleType>()
                    .write_batch(&v.floats, defs, reps),
                Kind::Bool => writer.typed::<BoolType>().write_batch(&v.bools, defs, reps),
            }
            .map_err(parquet_error)?;
        }
        Ok(())
    }

    /// Ends the file and puts it at its name ([`Part::close`], then
    /// [`Closed::publish`]).
    pub fn finish(self, replace: bool) -> io::Result<PathBuf> {
        self.close()?.publish(replace)
    }

    /// Ends the file under its temporary name: whole, not yet in place.
    pub fn close(self) -> io::Result<Closed> {
        let Part {
            writer, temp, path, ..
        } = self;
        let done = (|| -> io::Result<File> {
            let out = writer.into_inner().map_err(parquet_error)?;
            out.into_inner().map_err(|e| e.into_error())
        })();
        match done {
            Ok(file) => Ok(Closed { file, temp, path }),
            Err(e) => {
                let _ = std::fs::remove_file(&temp);
                Err(io::Error::new(e.kind(), format!("{}: {e}", path.display())))
            }
        }
    }

    /// Gives up the file: its temporary name is removed.
    pub fn abandon(self) {
        let _ = std::fs::remove_file(&self.temp);
    }
}

/// A whole file under its temporary name, to be put in place.
pub struct Closed {
    file: File,
    temp: PathBuf,
    path: PathBuf,
}

impl Closed {
    /// Puts the file at its name, its bytes on disk first: linked there
    /// (which fails when a file has that name) and the temporary name
    /// removed, or, with `replace`, renamed over what is there.
    pub fn publish(self, replace: bool) -> io::Result<PathBuf> {
        let Closed { file, temp, path } = self;
        let done = (|| -> io::Result<()> {
            file.sync_data()?;
            if replace {
                std::fs::rename(&temp, &path)
            } else {
                std::fs::hard_link(&temp, &path)?;
                // A file in place whose temporary name stays is taken
                // back whole: what failed is said, nothing half done.
                std::fs::remove_file(&temp).inspect_err(|_| {
                    let _ = std::fs::remove_file(&path);
                })
            }
        })();
        if let Err(e) = done {
            let _ = std::fs::remove_file(&temp);
            return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display())));
        }
        Ok(path)
    }

    /// Gives up the file: its temporary name is removed.
    pub fn abandon(self) {
        let _ = std::fs::remove_file(&self.temp);
    }
}
