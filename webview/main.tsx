import { render } from 'preact';

render(<div>Planwise</div>, document.getElementById('root') ?? document.body);
