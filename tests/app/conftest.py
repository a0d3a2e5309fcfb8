"""AppTest's fixtures."""
import pytest
from streamlit.components.v2 import manifest_scanner


@pytest.fixture(scope="session", autouse=True)
def components_scanned_once():
    """Each AppTest run scans the metadata of every installed package for Streamlit components, about half of what a
    page's run costs here. The installed packages do not change during a test session: the first scan's answer
    stands for the rest."""
    scan, found = manifest_scanner.scan_component_manifests, []

    def scan_once(*args, **kwargs):
        if not found:
            found.append(scan(*args, **kwargs))
        return found[0]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", scan_once)
        yield
