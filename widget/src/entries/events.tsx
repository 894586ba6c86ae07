import { EventsApp } from '../events/EventsApp';
import { mount } from '../lib/mount';

mount(EventsApp);
