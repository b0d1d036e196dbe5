import { mount } from 'svelte';
import App from './ui/App.svelte';
import './ui/global.css';
import { installAutomation } from './ui/automation';

const target = document.getElementById('app');
if (!target) throw new Error('index.html lacks #app');
mount(App, { target });
installAutomation();
