import { page, $ } from "./page.js";

// Sounds, made on the page (no files): a move, a pass, low time (under 10 s on the clock of the
// side this page plays) and the end. Off until switched on, remembered by the browser.
let soundOn = false;
try { soundOn = localStorage.getItem("yolah.sound") === "on"; } catch (e) { /* no storage */ }
let audio = null;
let lowTimeWarned = false;
const TONES = { move: [520, 0.06], pass: [330, 0.14], low: [880, 0.09], end: [392, 0.4] };
export function sound(kind) {
  if (!soundOn) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const [frequency, length] = TONES[kind];
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.08, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + length);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + length);
    page.soundsPlayed += 1;
  } catch (e) { /* no audio here */ }
}
export function drawSound() { $("sound").textContent = soundOn ? "Sound: on" : "Sound: off"; }

// The Sound button: on or off, remembered by the browser; a sound says it is on.
export function toggleSound() {
  soundOn = !soundOn;
  try { localStorage.setItem("yolah.sound", soundOn ? "on" : "off"); } catch (e) { /* no storage */ }
  drawSound();
  sound("move");
}

// Low time on the clock of the side this page plays: one warning a game.
export function warnLowTime() {
  if (lowTimeWarned) return;
  lowTimeWarned = true;
  sound("low");
}

// A new game may warn again.
export function newGameSounds() { lowTimeWarned = false; }
