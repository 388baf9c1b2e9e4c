import { render } from 'solid-js/web';

function App() {
  return (
    <main>
      <h1>Embed Inspector</h1>
      <p>Captures and validates the svc-embed messages between a host page and its embedded analytics iframe.</p>
    </main>
  );
}

render(() => <App />, document.getElementById('root')!);
