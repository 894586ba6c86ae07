import { ComboApp } from '../combo/ComboApp';
import { mount } from '../lib/mount';

mount(ComboApp);
