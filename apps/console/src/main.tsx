import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { KioskRoute, kioskParams } from './kiosk/kiosk-route';
import './styles.css';

// A kiosk page is public: it renders without the session (which would send it to sign in).
const kiosk = kioskParams(window.location.pathname);

createRoot(document.getElementById('root')!).render(<StrictMode>{kiosk ? <KioskRoute {...kiosk} /> : <App />}</StrictMode>);
