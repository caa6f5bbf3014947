// Standalone page of the files remote: mounted at the same paths as in the shell.
import { Navigate, Route, useParams } from 'react-router-dom';
import { mountStandalone } from '@app/shared/ui';
import App from './App';
import PreviewScreen from './preview/PreviewScreen';

function StandalonePreview() {
  return <PreviewScreen previewData={useParams().previewData ?? ''} />;
}

mountStandalone(
  <>
    <Route path="/file/*" element={<App section="file" />} />
    <Route path="/setting/*" element={<App section="setting" />} />
    <Route path="/preview/:previewData" element={<StandalonePreview />} />
    <Route path="*" element={<Navigate to="/file/personal" replace />} />
  </>,
);
