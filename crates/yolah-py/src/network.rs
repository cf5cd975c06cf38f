//! `yolah.Network`: a network the engine plays (`docs/network-format.md`) as numpy arrays, both
//! ways, so that a network trained elsewhere (`PyTorch`) becomes a `.yolahnet` file that
//! `minimax:net=FILE` plays, and a trained file becomes arrays.

use crate::position::position_arg;
use pyo3::exceptions::{
    PyFileNotFoundError, PyKeyError, PyOSError, PyPermissionError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::io::ErrorKind;
use std::path::PathBuf;
use yolah_ai::eval::network::parameters::{
    MAX_INPUT_WEIGHT, MAX_WEIGHT, Parameters, epochs_of, max_second_weight,
};
use yolah_ai::eval::network::{INPUTS, Network as Inference, Shape};

/// The arrays' names, in the file's order, and what each holds (B buckets, H, L2, L3 units, D
/// dense inputs, `last` = L3 or L2 without a third layer).
const ARRAYS: [&str; 10] = ["W1", "b1", "W2", "D2", "b2", "W3", "b3", "w", "s", "b"];

/// A network of the engine's architecture, any size the format allows.
#[pyclass(module = "yolah", name = "Network", frozen)]
pub struct Network {
    parameters: Parameters,
    epochs: u32,
    inference: Inference,
}

/// The float32 values of numpy array `array` and its shape.
fn floats(array: &Bound<'_, PyAny>) -> PyResult<(Vec<f32>, Vec<usize>)> {
    let numpy = array.py().import("numpy")?;
    let contiguous = numpy.call_method1("ascontiguousarray", (array, "<f4"))?;
    let shape: Vec<usize> = contiguous.getattr("shape")?.extract()?;
    let bytes: Vec<u8> = contiguous.call_method0("tobytes")?.extract()?;
    let values = bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    Ok((values, shape))
}

fn array<'py>(py: Python<'py>, values: &[f32], shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = values.iter().flat_map(|x| x.to_le_bytes()).collect();
    crate::numpy::array(py, &bytes, "<f4", shape)
}

/// Why a file could not be read, as the `OSError` its cause is (`FileNotFoundError`,
/// `PermissionError`, ...); `ValueError` for a file that is not one this reads (a folder, too
/// large).
pub(crate) fn read_error(path: &std::path::Path, error: &std::io::Error) -> PyErr {
    let message = format!("cannot read '{}': {error}", path.display());
    match error.kind() {
        ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        ErrorKind::InvalidInput | ErrorKind::InvalidData | ErrorKind::FileTooLarge => {
            PyValueError::new_err(message)
        }
        _ => PyOSError::new_err(message),
    }
}

/// The first value of array `name` (of `shape`, row-major) that is not finite or beyond
/// `limit`, as an error that names the array and the index.
fn check_range(name: &str, values: &[f32], shape: &[usize], limit: f32) -> PyResult<()> {
    let Some(at) = values
        .iter()
        .position(|x| !x.is_finite() || x.abs() > limit)
    else {
        return Ok(());
    };
    let mut index = vec![0; shape.len()];
    let mut rest = at;
    for (axis, &size) in shape.iter().enumerate().rev() {
        index[axis] = rest % size.max(1);
        rest /= size.max(1);
    }
    let index: Vec<String> = index.iter().map(ToString::to_string).collect();
    Err(PyValueError::new_err(format!(
        "array '{name}' at [{}] is {}, outside ±{limit} (not a network the engine can run)",
        index.join(", "),
        values[at]
    )))
}

impl Network {
    fn new(parameters: &Parameters, epochs: u32) -> PyResult<Network> {
        // Through the file format, so a network made here is refused where a file of it
        // would be (a weight outside its limit, a bad shape).
        let bytes = parameters.to_bytes(epochs);
        let parameters = Parameters::from_bytes(&bytes)
            .map_err(|e| PyValueError::new_err(format!("not a network the engine runs: {e}")))?;
        let inference = Inference::new(parameters.clone());
        Ok(Network {
            parameters,
            epochs,
            inference,
        })
    }
}

#[pymethods]
impl Network {
    /// Reads a `.yolahnet` file (`yolah train` writes them); `ValueError` if it is not one,
    /// `FileNotFoundError` (an `OSError`) if it cannot be read.
    #[staticmethod]
    #[allow(
        clippy::needless_pass_by_value,
        reason = "pyo3 extracts arguments by value"
    )]
    fn load(path: PathBuf) -> PyResult<Network> {
        let bytes = yolah_ai::files::read_bounded(
            &path,
            yolah_ai::eval::network::parameters::MAX_FILE_SIZE,
        )
        .map_err(|e| read_error(&path, &e))?;
        let parameters = Parameters::from_bytes(&bytes)
            .map_err(|e| PyValueError::new_err(format!("'{}': {e}", path.display())))?;
        Network::new(&parameters, epochs_of(&bytes))
    }

    /// The network shipped with the engine (what `minimax:eval=nn` plays).
    #[staticmethod]
    fn shipped() -> PyResult<Network> {
        Network::new(Inference::shipped().parameters(), 0)
    }

    /// A network from numpy arrays (any float dtype), as [`Network::arrays`] gives them:
    /// `W1` (193, H): input i's weight on unit h, `PyTorch`'s `fc1.weight.T`; `b1` (H,); then
    /// per bucket (first axis B): `W2` (B, L2, H), `D2` (B, L2, D), `b2` (B, L2), `W3`
    /// (B, L3, L2), `b3` (B, L3), `w` (B, last), `s` (B, D), `b` (B,). D is 22 (the heuristic's
    /// features) or 0; L3 may be 0 (no third layer; then `last` is L2).
    #[staticmethod]
    #[pyo3(signature = (arrays, epochs=0))]
    fn from_arrays(arrays: &Bound<'_, PyDict>, epochs: u32) -> PyResult<Network> {
        let mut got: Vec<(Vec<f32>, Vec<usize>)> = Vec::new();
        for name in ARRAYS {
            let item = arrays
                .get_item(name)?
                .ok_or_else(|| PyKeyError::new_err(format!("no array '{name}'")))?;
            got.push(floats(&item)?);
        }
        for key in arrays.keys() {
            let key: String = key.extract()?;
            if !ARRAYS.contains(&key.as_str()) {
                return Err(PyKeyError::new_err(format!(
                    "unknown array '{key}'; the arrays are {}",
                    ARRAYS.join(", ")
                )));
            }
        }
        let dim = |i: usize, axis: usize| got[i].1.get(axis).copied().unwrap_or(0);
        let shape = Shape {
            hidden: dim(1, 0),
            second: dim(4, 1),
            third: dim(6, 1),
            buckets: dim(4, 0),
            features: dim(3, 2) > 0,
        };
        shape
            .check()
            .map_err(|e| PyValueError::new_err(format!("bad shape: {e}")))?;
        let (h, l2, l3, b, d) = (
            shape.hidden,
            shape.second,
            shape.third,
            shape.buckets,
            shape.dense(),
        );
        let expected: [Vec<usize>; 10] = [
            vec![INPUTS, h],
            vec![h],
            vec![b, l2, h],
            vec![b, l2, d],
            vec![b, l2],
            vec![b, l3, l2],
            vec![b, l3],
            vec![b, shape.last()],
            vec![b, d],
            vec![b],
        ];
        for ((name, (_, shape)), want) in ARRAYS.iter().zip(&got).zip(&expected) {
            if shape != want {
                return Err(PyValueError::new_err(format!(
                    "array '{name}' has shape {shape:?}; with H={h}, L2={l2}, L3={l3}, B={b}, \
                     D={d} it must be {want:?}"
                )));
            }
        }
        // Each value within its limit, said by array and index (the file's check would name
        // only its place in the file).
        for (name, (values, shape)) in ARRAYS.iter().zip(&got) {
            let limit = match *name {
                "W1" | "b1" => MAX_INPUT_WEIGHT,
                "W2" => max_second_weight(h),
                _ => MAX_WEIGHT,
            };
            check_range(name, values, shape, limit)?;
        }
        // File order: W1, b1, then each bucket's stack.
        let mut flat = Vec::with_capacity(shape.parameters());
        flat.extend_from_slice(&got[0].0);
        flat.extend_from_slice(&got[1].0);
        for k in 0..b {
            for (values, _) in got.iter().skip(2) {
                let per = values.len() / b;
                flat.extend_from_slice(&values[k * per..(k + 1) * per]);
            }
        }
        Network::new(&Parameters::from_flat(shape, &flat), epochs)
    }

    /// The arrays (float32) that [`Network::from_arrays`] takes.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let p = &self.parameters;
        let s = p.shape;
        let b = s.buckets;
        let dict = PyDict::new(py);
        dict.set_item("W1", array(py, &p.input, &[INPUTS, s.hidden])?)?;
        dict.set_item("b1", array(py, &p.bias1, &[s.hidden])?)?;
        let joined = |part: fn(&yolah_ai::eval::network::parameters::Stack) -> Vec<f32>| {
            p.stacks.iter().flat_map(part).collect::<Vec<f32>>()
        };
        dict.set_item(
            "W2",
            array(py, &joined(|t| t.hidden.clone()), &[b, s.second, s.hidden])?,
        )?;
        dict.set_item(
            "D2",
            array(py, &joined(|t| t.dense.clone()), &[b, s.second, s.dense()])?,
        )?;
        dict.set_item(
            "b2",
            array(py, &joined(|t| t.bias2.clone()), &[b, s.second])?,
        )?;
        dict.set_item(
            "W3",
            array(py, &joined(|t| t.third.clone()), &[b, s.third, s.second])?,
        )?;
        dict.set_item(
            "b3",
            array(py, &joined(|t| t.bias3.clone()), &[b, s.third])?,
        )?;
        dict.set_item(
            "w",
            array(py, &joined(|t| t.output.clone()), &[b, s.last()])?,
        )?;
        dict.set_item(
            "s",
            array(py, &joined(|t| t.skip.clone()), &[b, s.dense()])?,
        )?;
        dict.set_item("b", array(py, &joined(|t| vec![t.bias_out]), &[b])?)?;
        Ok(dict)
    }

    /// Writes the network as a `.yolahnet` file (format version 2), whole or not at all: a
    /// failed save (a full disk) leaves the file that was there.
    #[allow(
        clippy::needless_pass_by_value,
        reason = "pyo3 extracts arguments by value"
    )]
    fn save(&self, path: PathBuf) -> PyResult<()> {
        yolah_ai::files::write_durably(&path, &self.parameters.to_bytes(self.epochs))
            .map_err(|e| PyValueError::new_err(format!("cannot write '{}': {e}", path.display())))
    }

    /// The sizes: `{"hidden", "second", "third", "buckets", "features"}`.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.parameters.shape;
        let dict = PyDict::new(py);
        dict.set_item("hidden", s.hidden)?;
        dict.set_item("second", s.second)?;
        dict.set_item("third", s.third)?;
        dict.set_item("buckets", s.buckets)?;
        dict.set_item("features", s.features)?;
        Ok(dict)
    }

    /// The epochs of training the file records.
    #[getter]
    fn epochs(&self) -> u32 {
        self.epochs
    }

    /// The float network's output for a position: the rest of the game's margin for black, in
    /// points (what a trainer fits).
    fn forward(&self, position: &Bound<'_, PyAny>) -> PyResult<f32> {
        Ok(self.parameters.forward(&position_arg(position)?))
    }

    /// The engine's evaluation (its integer inference): the final margin for the side to
    /// move, in points, the points scored so far included.
    fn evaluate(&self, position: &Bound<'_, PyAny>) -> PyResult<f64> {
        let position = position_arg(position)?;
        let acc = self.inference.accumulator(&position);
        Ok(f64::from(self.inference.evaluate(&acc, &position)) / 100.0)
    }

    fn __repr__(&self) -> String {
        format!("Network({})", self.parameters.shape)
    }
}
