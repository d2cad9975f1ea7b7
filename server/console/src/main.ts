// The console's entry: defines every element; `<console-app>` in index.html takes it from there.
import './shell/console-app.js';
